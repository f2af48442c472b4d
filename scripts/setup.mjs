#!/usr/bin/env node
// Installs everything perfgate needs on a fresh Debian machine, idempotently.
// Runs before `npm test` and `npm run bench` (npm pre-scripts), so it uses only Node built-ins:
// node_modules may not exist yet. A step that cannot run (not root, no registry, no toolchain)
// is reported in one line and skipped; whatever depends on it skips with its own reason later.
// It also builds the servers in other languages (Go, Java) into .perfgate/build/, only when
// their sources changed, so that a run with nothing to do stays quick.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { runCommand } from '../bench/cli/run.js';
import { isInstalled, workflowLinters } from '../bench/github/workflow-linters.js';
import { VEGETA_BIN, VEGETA_GOBIN, VEGETA_MODULE } from '../bench/measurement/engines/vegeta-install.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Debian packages by purpose; `bench` is what the benchmark job can use, `test` adds the test tools.
// postgresql: the database the db scenario's servers query (bench/measurement/database.js).
// shellcheck: actionlint runs it over the workflows' run: scripts (scripts/lint-workflows.mjs).
// stress-ng: calibrate's --neighbour CPU hog (bench/comparison/calibration/neighbour.js).
// bubblewrap: the sandbox of the code under test in compare and bisect (bench/measurement/sandbox/).
// nftables: the rules that keep each sandboxed side to its own addresses (bench/measurement/sandbox/side-networks.js).
// python3-seccomp: libseccomp, which compiles the sandbox's system call filter (bench/measurement/sandbox/seccomp.js).
const DEBIAN_PACKAGES = {
  bench: ['wrk', 'nginx', 'postgresql', 'stress-ng', 'bubblewrap', 'nftables', 'python3-seccomp'],
  test: [
    'wrk',
    'nginx',
    'postgresql',
    'stress-ng',
    'chromium',
    'shellcheck',
    'bubblewrap',
    'nftables',
    'python3-seccomp',
  ],
};

const SETUP_COMMAND = {
  name: 'setup',
  invocation: 'node scripts/setup.mjs',
  synopsis: '[--for bench|test]',
  summary:
    'Installs what perfgate needs on a Debian machine, idempotently: npm packages, Debian packages, the\nworkflow linters (test), and builds the Go and Java servers.',
  options: {
    for: {
      type: 'choice',
      choices: Object.keys(DEBIAN_PACKAGES),
      help: 'bench: what the benchmark job uses; test: also the test tools',
      default: 'bench',
    },
  },
};

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const say = (msg) => console.log(`setup: ${msg}`);
// Debian installs PostgreSQL's server programs off PATH, in a directory per major version.
const hasPostgres = () =>
  has('initdb') || spawnSync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/postgres'], { stdio: 'ignore' }).status === 0;
const INSTALLED = {
  wrk: () => has('wrk'),
  nginx: () => has('nginx') || existsSync('/usr/sbin/nginx'),
  postgresql: hasPostgres,
  chromium: () => has('chromium'),
  shellcheck: () => has('shellcheck'),
  'stress-ng': () => has('stress-ng'),
  bubblewrap: () => has('bwrap'),
  // Debian installs nft in /usr/sbin, off a user's PATH.
  nftables: () => has('nft') || existsSync('/usr/sbin/nft'),
  // Debian's Python, whichever python3 comes first on PATH.
  'python3-seccomp': () => spawnSync('/usr/bin/python3', ['-c', 'import seccomp'], { stdio: 'ignore' }).status === 0,
};

function installNodeModules() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  say('installing npm packages (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

function installDebianPackages(packages) {
  const missing = packages.filter((pkg) => !INSTALLED[pkg]());
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    say(`cannot install ${missing.join(', ')} (needs root and apt-get); the parts that use them will skip`);
    return;
  }
  say(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  if (install?.status !== 0) say(`apt-get could not install ${missing.join(', ')}; the parts that use them will skip`);
}

// The workflow linters of the tests (test/github-workflows-lint.e2e.test.js), pinned, into .perfgate/tools/.
function installWorkflowLinters() {
  for (const linter of workflowLinters(root)) {
    if (isInstalled(linter)) continue;
    const missing = linter.needs.filter((tool) => !has(tool));
    if (missing.length) {
      say(`${missing.join(', ')} missing: ${linter.name} not installed, the workflow lint test will skip`);
      continue;
    }
    say(`installing ${linter.name} ${linter.version}`);
    const failed = linter.steps.some(
      ([command, args, env]) =>
        spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env }, timeout: 300_000 }).status !== 0,
    );
    if (failed) say(`${linter.name} ${linter.version} could not be installed; the workflow lint test will skip`);
  }
}

// vegeta, the open-model load engine (bench/measurement/engines/vegeta.js), from the Go module proxy.
function installVegeta() {
  if (existsSync(VEGETA_BIN)) return;
  if (!has('go')) return say('go missing: vegeta not built, the vegeta engine will skip');
  say(`building ${VEGETA_MODULE}`);
  const built = spawnSync('go', ['install', VEGETA_MODULE], {
    stdio: 'inherit',
    // GOTOOLCHAIN=local: build with the installed Go, never download another.
    env: { ...process.env, GOBIN: VEGETA_GOBIN, GOTOOLCHAIN: 'local' },
    timeout: 600_000,
  });
  if (built.status !== 0) say('vegeta did not build; the vegeta engine will skip');
}

const BUILD_DIR = join(root, '.perfgate', 'build');

function newestChange(path) {
  const paths = statSync(path).isDirectory()
    ? readdirSync(path, { recursive: true }).map((entry) => join(path, entry))
    : [];
  return Math.max(statSync(path).mtimeMs, ...paths.map((entry) => statSync(entry).mtimeMs));
}

// Builds `output` from `sources` with `command` unless it is newer than all of them.
function build({ name, tools, sources, output, command, cwd, env }) {
  const missing = tools.filter((tool) => !has(tool));
  if (missing.length) return say(`${missing.join(', ')} missing: ${name} not built, its variant will skip`);
  if (existsSync(output) && statSync(output).mtimeMs >= Math.max(...sources.map(newestChange))) return;
  say(`building ${name}`);
  const built = spawnSync(command[0], command.slice(1), { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (built.status !== 0) say(`${name} did not build; its variant will skip`);
}

const goServer = join(root, 'servers', 'go-nethttp');
const tomcatServer = join(root, 'servers', 'tomcat');

await runCommand(SETUP_COMMAND, ({ values: { for: profile } }) => {
  installNodeModules();
  installDebianPackages(DEBIAN_PACKAGES[profile]);
  if (profile === 'test') installWorkflowLinters();
  installVegeta();
  build({
    name: 'go-nethttp',
    tools: ['go'],
    sources: [goServer],
    output: join(BUILD_DIR, 'go-nethttp'),
    cwd: goServer,
    command: ['go', 'build', '-o', join(BUILD_DIR, 'go-nethttp'), '.'],
    env: { GOTOOLCHAIN: 'local' }, // the installed Go, never a download of another
  });
  build({
    name: 'tomcat',
    tools: ['java', 'mvn'],
    sources: [join(tomcatServer, 'pom.xml'), join(tomcatServer, 'src')],
    output: join(BUILD_DIR, 'tomcat', 'perfgate-tomcat.jar'),
    cwd: tomcatServer,
    command: ['mvn', '-q', '-B', 'package'], // into .perfgate/build/tomcat (pom.xml), dependencies from Maven Central
  });
});
