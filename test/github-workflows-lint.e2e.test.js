// actionlint and zizmor over .github/ and over the templates and actions as a user's repository
// has them (scripts/lint-workflows.mjs, zizmor's auditor persona: every audit): zero findings, and proof
// that they do find the mistakes they are there for. Skips, saying why, when scripts/setup.mjs
// could not install them (no Go, no Python, no registry).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isInstalled, workflowLinters } from '../bench/github/workflow-linters.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const missing = workflowLinters(PROJECT_ROOT).filter((linter) => !isInstalled(linter));
const skip = missing.length
  ? `${missing.map((linter) => `${linter.name} ${linter.version}`).join(', ')} not installed (node scripts/setup.mjs --for test installs it)`
  : false;
const lint = (args) =>
  spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/lint-workflows.mjs'), ...args], { encoding: 'utf8' });

test('actionlint and zizmor (auditor: every persona) find nothing in .github/, the templates and the actions', {
  skip,
}, () => {
  const run = lint([]);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  for (const target of ['.github/', 'templates/ and actions/']) {
    assert.ok(run.stdout.includes(`actionlint 1.7.12 over ${target}: no findings`), run.stdout);
    assert.ok(run.stdout.includes(`zizmor 1.32.0 over ${target}: no findings`), run.stdout);
  }
});

test('they catch an injectable, unpinned workflow with a write token', { skip }, () => {
  const root = tempDir();
  mkdirSync(join(root, '.github/workflows'), { recursive: true });
  writeFileSync(
    join(root, '.github/workflows/bad.yml'),
    [
      'name: bad',
      'on: pull_request_target',
      'jobs:',
      '  greet:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: echo "${{ github.event.pull_request.title }}"',
      '',
    ].join('\n'),
  );
  const run = lint(['--root', root]);
  assert.equal(run.status, 1);
  const output = run.stdout + run.stderr;
  assert.match(output, /"github\.event\.pull_request\.title" is potentially untrusted/);
  for (const audit of ['template-injection', 'unpinned-uses', 'dangerous-triggers', 'artipacked'])
    assert.match(output, new RegExp(`\\[${audit}\\]`));
});
