#!/usr/bin/env node
// Lints the GitHub workflows: actionlint (syntax, expressions, runner labels, and shellcheck on
// every run: script) and zizmor (security audits: injection, permissions, pinning, triggers),
// both at the versions scripts/setup.mjs installs into .perfgate/tools/, over this project's
// .github/ and over the templates and actions as they land in a user's repository.
//   node scripts/lint-workflows.mjs [--root DIR] [--persona regular|pedantic|auditor]
// zizmor runs offline (no GitHub API here) with the auditor persona by default: every audit, so
// no persona finds anything when it finds nothing. --root lints that checkout's .github/ only.
// Exit 0 no finding, 1 findings, 2 a linter is missing or a bad command line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../bench/cli/run.js';
import { errors, EXIT } from '../bench/core/errors.js';
import {
  adopterLayout,
  isInstalled,
  lintCommands,
  PERSONAS,
  workflowLinters,
} from '../bench/github/workflow-linters.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

const LINT_COMMAND = {
  name: 'lint-workflows',
  invocation: 'node scripts/lint-workflows.mjs',
  synopsis: '[--root DIR] [--persona NAME]',
  summary:
    "Lints .github/ and the templates and actions (laid out as in a user's repository) with actionlint and zizmor\n(offline). Exit 1 on findings, 2 when a linter is missing.",
  options: {
    root: {
      type: 'string',
      value: 'DIR',
      help: "lint only this checkout's .github/",
      defaultText: "this project, and its templates and actions as a user's repository has them",
    },
    persona: {
      type: 'choice',
      choices: PERSONAS,
      help: "zizmor's persona; auditor (every audit) is the project's bar",
      default: 'auditor',
    },
  },
};

await runCommand(LINT_COMMAND, ({ values: options }) => {
  const linters = workflowLinters(PROJECT_ROOT);
  const missing = linters.filter((linter) => !isInstalled(linter));
  if (missing.length) throw errors.toolsMissing(missing);
  const targets = [{ what: '.github/', root: resolve(options.root ?? PROJECT_ROOT), zizmorPaths: ['.github'] }];
  let layout;
  if (!options.root) {
    layout = mkdtempSync(join(tmpdir(), 'perfgate-lint-'));
    targets.push({ what: 'templates/ and actions/', root: layout, zizmorPaths: adopterLayout(PROJECT_ROOT, layout) });
  }
  let clean = true;
  try {
    for (const target of targets) {
      for (const [linter, args] of lintCommands(linters, target.root, { persona: options.persona, ...target })) {
        const run = spawnSync(linter.bin, args, { cwd: target.root, stdio: 'inherit' });
        const ok = run.status === 0;
        console.log(
          `lint-workflows: ${linter.name} ${linter.version} over ${target.what}: ${ok ? 'no findings' : `findings (exit ${run.status ?? run.signal})`}`,
        );
        clean &&= ok;
      }
    }
  } finally {
    if (layout) rmSync(layout, { recursive: true, force: true });
  }
  return clean ? EXIT.ok : EXIT.failed;
});
