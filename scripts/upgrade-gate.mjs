#!/usr/bin/env node
// The upgrade gate of the update bots' framework pull requests (.github/workflows/upgrade-gate.yml):
// every framework package whose locked version differs between --base and the working tree is
// compared old vs new with `npm run compare -- --dep PKG@OLD --dep-lock BASE --vs PKG@NEW
// --vs-lock HEAD`, which measures the variants that use it, each version installed exactly as
// its side's package-lock.json locks it and what it needs (npm ci, never re-resolved). An entry
// that is not an exact registry version with integrity (a remote tarball, a git URL, a path, no
// integrity) is refused before anything is installed. Each comparison is kept as
// DIR/comparison-<package>.json and .md for the pull-request comment.
//   node scripts/upgrade-gate.mjs --base REF [--head REF] --out DIR [-- compare options, e.g. --duration 5]
// --head: the lockfile of that commit instead of the working tree's, so that a user's repository
// measures its own (trusted) checkout with the versions a pull request asks for. In a repository
// with a perfgate.config, the packages watched are its package.json's dependencies.
// A changed Node.js version (.nvmrc, .node-version, package.json volta.node or engines.node, a
// workflow's actions/setup-node node-version) is compared the same way, as
// `npm run compare -- --runtime node@OLD --vs-runtime node@NEW` on the checkout's own code.
// With --head, the workflows that commit changed since its merge base with --base may differ only
// in actions/setup-node's node-version (parsed as YAML; PG_WORKFLOW_CHANGE before anything runs).
// Exit 0 no regression (or no framework changed), 1 a regression beyond compare's
// --fail-threshold, 2 bad input or a comparison that could not run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, runCommand } from '../bench/cli/run.js';
import { EXIT } from '../bench/core/errors.js';
import { appendSummary } from '../bench/github/context.js';
import { changedFrameworks, comparisonRuns } from '../bench/github/packages.js';
import { changedRuntime } from '../bench/github/runtime-upgrade.js';
import { mergeBaseOf, runtimeFilesAt, sideAt, writeSide } from '../bench/github/upgrade-sides.js';
import { checkWorkflowChanges } from '../bench/github/workflow-change.js';
import { loadProject } from '../bench/project/config.js';

const UPGRADE_GATE_COMMAND = {
  name: 'upgrade-gate',
  invocation: 'node scripts/upgrade-gate.mjs',
  synopsis: '--base REF [--head REF] --out DIR [-- compare options]',
  summary: `Compares old vs new every framework package whose locked version differs between --base and --head (default: the\nworking tree) (${commandLine('compare')} --dep PKG@OLD --vs PKG@NEW), each installed exactly as its side's lockfile locks it;\nentries that are not registry versions with integrity are refused; a changed Node.js version (.nvmrc, .node-version, engines.node,
volta.node, setup-node) is compared with --runtime node@OLD --vs-runtime node@NEW. Exit 1 on a regression beyond compare's --fail-threshold or a benchmark the new version failed.\nIn a repository with a perfgate.config, the packages watched are its package.json's dependencies.`,
  options: {
    base: { type: 'string', value: 'REF', help: 'the commit whose package-lock.json is the old side', required: true },
    head: {
      type: 'string',
      value: 'REF',
      help: 'the commit whose package-lock.json is the new side',
      defaultText: 'the working tree',
    },
    out: { type: 'string', value: 'DIR', help: 'where comparison-<package>.json and .md are kept', required: true },
  },
  passThrough: `options of ${commandLine('compare')}, e.g. --duration 5`,
  unknownHint: 'compare options go after --',
};
const COMPARE = fileURLToPath(new URL('compare.mjs', import.meta.url));
// compare's exit codes (bench/comparison/gate.js): 1 is a regression beyond the gate or a benchmark the new version failed.
const OUTCOMES = {
  [EXIT.ok]: 'no regression',
  [EXIT.failed]: 'FAILS (a regression, or a benchmark the new version failed)',
};

await runCommand(UPGRADE_GATE_COMMAND, async ({ values: { base, head, out: outArg }, rest: compareArgs }) => {
  const out = resolve(outArg);
  const baseSide = sideAt(base);
  const headSide = sideAt(head);
  const project = await loadProject();
  const watched = project
    ? Object.keys(JSON.parse(readFileSync(join(project.root, 'package.json'), 'utf8')).dependencies ?? {})
    : undefined;
  const [baseFiles, headFiles] = [runtimeFilesAt(base), runtimeFilesAt(head)];
  // A pull request's own workflow changes (since its merge base) must be a new setup-node
  // node-version and nothing else, before anything is installed.
  if (head !== undefined) checkWorkflowChanges(runtimeFilesAt(mergeBaseOf(base, head)), headFiles);
  const changes = [
    ...changedFrameworks(baseSide.lock, headSide.lock, watched),
    ...changedRuntime(baseFiles, headFiles),
  ];
  const sides = changes.length
    ? {
        base: writeSide(join(out, 'runs', 'lockfiles', 'base'), baseSide),
        head: writeSide(join(out, 'runs', 'lockfiles', 'head'), headSide),
      }
    : {};
  const runs = comparisonRuns(changes, join(out, 'runs'), compareArgs, sides);
  if (!runs.length) {
    const line = `upgrade gate: no ${project ? 'dependency' : 'framework package'} and no Node.js version changed since ${base}: nothing to compare`;
    console.log(line);
    appendSummary(line);
  }
  const lines = [];
  let exitCode = EXIT.ok;
  for (const run of runs) {
    console.log(`upgrade gate: ${run.name} ${run.from} -> ${run.to}`);
    const compared = spawnSync(process.execPath, [COMPARE, ...run.args], { stdio: 'inherit' });
    const code = compared.status ?? EXIT.badInput;
    for (const extension of ['json', 'md']) {
      const file = join(run.outDir, `comparison.${extension}`);
      if (existsSync(file)) copyFileSync(file, join(out, `comparison-${run.slug}.${extension}`));
    }
    lines.push(`- ${run.name} ${run.from} → ${run.to}: ${OUTCOMES[code] ?? 'comparison failed (see the log)'}`);
    exitCode = Math.max(exitCode, code in OUTCOMES ? code : EXIT.badInput);
  }
  if (lines.length) {
    console.log(lines.join('\n'));
    appendSummary(['### perfgate upgrade gate', '', ...lines].join('\n'));
  }
  return exitCode;
});
