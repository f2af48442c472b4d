import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './servers-repo.js';

// A project's CI workflow with setup-node, as a pull request changes it: the runtime-upgrade
// detector and the gate's workflow check read the same file.
export const setupNodeWorkflow = ({ version = '22', run = 'npm test', matrix } = {}) => `name: ci
on: push
jobs:
  test:
    runs-on: ubuntu-latest
${matrix === undefined ? '' : `    strategy:\n      matrix:\n        node: ${matrix}\n`}    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4
      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4
        with:
          cache: npm
          node-version: ${version}
      - run: ${run}
`;

// A workflow step's `run` script as the runner runs it (bash -eo pipefail) in cwd with `env` added;
// its exit code and output, whether it succeeds or fails.
export const runWorkflowStep = (step, cwd, env) =>
  new Promise((resolve) => {
    execFile(
      'bash',
      ['-eo', 'pipefail', '-c', step.run],
      { cwd, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });

// The repository on "GitHub" (a bare one on disk, under root) with a site committed on main (its
// index.html and `files`), and its checkout; `branches` are the refspecs pushed there
// (main:gh-pages too for a site branch).
export function siteRepository(root, branches = ['main:main'], files = {}) {
  const checkout = join(root, 'checkout');
  for (const [file, content] of Object.entries({ 'site/index.html': '<!doctype html>', ...files })) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    writeFileSync(join(checkout, file), content);
  }
  git(checkout, 'init', '-q', '-b', 'main');
  git(checkout, 'add', '.');
  git(checkout, 'commit', '-qm', 'site');
  const remote = join(root, 'owner/pages.git');
  git(root, 'init', '-q', '--bare', remote);
  git(checkout, 'push', '-q', remote, ...branches);
  return { checkout, remote, sha: git(checkout, 'rev-parse', 'HEAD') };
}
