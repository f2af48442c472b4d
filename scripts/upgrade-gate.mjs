#!/usr/bin/env node
// The upgrade gate of dependabot's framework pull requests (.github/workflows/upgrade-gate.yml):
// every framework package whose locked version differs between --base and --head (default: the
// working tree) is
// compared old vs new with `npm run compare -- --dep PKG@OLD --vs PKG@NEW`, which measures the
// variants that use it. Each comparison is kept as DIR/comparison-<package>.json and .md for
// the pull-request comment.
//   node scripts/upgrade-gate.mjs --base REF [--head REF] --out DIR [-- compare options, e.g. --duration 5]
// The harness and servers are this checkout's; only the framework versions differ (installed
// in isolation with install scripts off, bench/compare/sides.js).
// Exit 0 no regression (or no framework changed), 1 a regression beyond compare's
// --fail-threshold, 2 bad input or a comparison that could not run.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PerfgateError } from '../bench/errors.js';
import { appendSummary } from '../bench/github/context.js';
import { githubErrors } from '../bench/github/errors.js';
import { changedFrameworks, comparisonRuns } from '../bench/github/packages.js';

const USAGE = 'usage: node scripts/upgrade-gate.mjs --base REF [--head REF] --out DIR [-- compare options]';
const COMPARE = fileURLToPath(new URL('compare.mjs', import.meta.url));
const OUTCOMES = { 0: 'no regression', 1: 'REGRESSION' };

function parseCommand(argv) {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const { values, positionals } = parseArgs({ args: own, options: { base: { type: 'string' }, head: { type: 'string' }, out: { type: 'string' } }, allowPositionals: true, strict: false });
  const problems = [
    ...Object.keys(values).filter((flag) => !['base', 'head', 'out'].includes(flag)).map((flag) => `unknown option --${flag} (compare options go after --)`),
    ...positionals.map((word) => `unexpected argument "${word}"`),
    ...['base', 'out'].filter((flag) => typeof values[flag] !== 'string').map((flag) => `--${flag} is required`),
  ];
  if (problems.length) throw githubErrors.badArgs(problems, USAGE);
  if (values.head !== undefined && typeof values.head !== 'string') throw githubErrors.badArgs(['--head needs a REF'], USAGE);
  return { base: values.base, head: values.head, out: resolve(values.out), compareArgs: split === -1 ? [] : argv.slice(split + 1) };
}

// `--end-of-options`: a ref starting with a dash is never an option of git.
const lockfileOfRef = (ref) => execFileSync('git', ['show', '--end-of-options', `${ref}:package-lock.json`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

function lockfile(read, what) {
  let text;
  try {
    text = read();
  } catch (error) {
    throw githubErrors.badLockfile(what, `cannot be read (${String(error.stderr || error.message).trim().split('\n')[0]})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw githubErrors.badLockfile(what, 'is not JSON');
  }
}

try {
  const { base, head, out, compareArgs } = parseCommand(process.argv.slice(2));
  const baseLock = lockfile(() => lockfileOfRef(base), `package-lock.json at ${base}`);
  const headLock = head === undefined
    ? lockfile(() => readFileSync('package-lock.json', 'utf8'), 'package-lock.json of the working tree')
    : lockfile(() => lockfileOfRef(head), `package-lock.json at ${head}`);
  const runs = comparisonRuns(changedFrameworks(baseLock, headLock), join(out, 'runs'), compareArgs);
  if (!runs.length) {
    const line = `upgrade gate: no framework package changed version since ${base}: nothing to compare`;
    console.log(line);
    appendSummary(line);
  }
  const lines = [];
  let exitCode = 0;
  for (const run of runs) {
    console.log(`upgrade gate: ${run.name} ${run.from} -> ${run.to}`);
    const compared = spawnSync(process.execPath, [COMPARE, ...run.args], { stdio: 'inherit' });
    const code = compared.status ?? 2;
    for (const extension of ['json', 'md']) {
      const file = join(run.outDir, `comparison.${extension}`);
      if (existsSync(file)) copyFileSync(file, join(out, `comparison-${run.slug}.${extension}`));
    }
    lines.push(`- ${run.name} ${run.from} → ${run.to}: ${OUTCOMES[code] ?? 'comparison failed (see the log)'}`);
    exitCode = Math.max(exitCode, code in OUTCOMES ? code : 2);
  }
  if (lines.length) {
    console.log(lines.join('\n'));
    appendSummary(['### perfgate upgrade gate', '', ...lines].join('\n'));
  }
  process.exitCode = exitCode;
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
}
