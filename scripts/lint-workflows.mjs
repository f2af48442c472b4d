#!/usr/bin/env node
// Lints the GitHub workflows: actionlint (syntax, expressions, runner labels, and shellcheck on
// every run: script) and zizmor (security audits: injection, permissions, pinning, triggers),
// both at the versions scripts/setup.mjs installs into .perfgate/tools/.
//   node scripts/lint-workflows.mjs [--root DIR] [--persona pedantic|regular|auditor]
// zizmor runs offline (no GitHub API here); its default here is the pedantic persona, the
// project's bar. Exit 0 no finding, 1 findings, 2 a linter is missing or a bad command line.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../bench/cli/run.js';
import { errors, EXIT } from '../bench/errors.js';
import { isInstalled, workflowLinters } from '../bench/github/workflow-linters.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PERSONAS = ['pedantic', 'regular', 'auditor'];

const LINT_COMMAND = {
  name: 'lint-workflows',
  invocation: 'node scripts/lint-workflows.mjs',
  synopsis: '[--root DIR] [--persona NAME]',
  summary: 'Lints .github/ with actionlint and zizmor (offline). Exit 1 on findings, 2 when a linter is missing.',
  options: {
    root: { type: 'string', value: 'DIR', help: 'the checkout whose .github/ is linted', defaultText: 'this project' },
    persona: {
      type: 'choice',
      choices: PERSONAS,
      help: "zizmor's persona; pedantic is the project's bar",
      default: 'pedantic',
    },
  },
};

await runCommand(LINT_COMMAND, ({ values: options }) => {
  const root = resolve(options.root ?? PROJECT_ROOT);
  const linters = Object.fromEntries(workflowLinters(PROJECT_ROOT).map((linter) => [linter.name, linter]));
  const missing = Object.values(linters).filter((linter) => !isInstalled(linter));
  if (missing.length) throw errors.toolsMissing(missing);

  // Named files and config, so that actionlint needs no git repository around them.
  const workflows = join('.github', 'workflows');
  const files = existsSync(join(root, workflows))
    ? readdirSync(join(root, workflows))
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => join(workflows, name))
    : [];
  const config = join('.github', 'actionlint.yaml');
  const runs = [
    [linters.actionlint, ['-no-color', ...(existsSync(join(root, config)) ? ['-config-file', config] : []), ...files]],
    [
      linters.zizmor,
      ['--offline', '--quiet', '--no-progress', '--color=never', `--persona=${options.persona}`, '.github'],
    ],
  ];
  let clean = true;
  for (const [linter, args] of runs) {
    const run = spawnSync(linter.bin, args, { cwd: root, stdio: 'inherit' });
    const ok = run.status === 0;
    console.log(
      `lint-workflows: ${linter.name} ${linter.version}: ${ok ? 'no findings' : `findings (exit ${run.status ?? run.signal})`}`,
    );
    clean &&= ok;
  }
  return clean ? EXIT.ok : EXIT.failed;
});
