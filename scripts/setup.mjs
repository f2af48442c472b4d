#!/usr/bin/env node
// Installs everything perfgate needs on a fresh Debian machine, idempotently.
// Runs before `npm test` and `npm run bench` (npm pre-scripts), so it uses only Node built-ins:
// node_modules may not exist yet. A step that cannot run (not root, no registry) is reported
// in one line and skipped; whatever depends on it skips with its own reason later.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Debian packages by purpose; `bench` is what the benchmark job can use, `test` adds the test tools.
const DEBIAN_PACKAGES = {
  bench: ['wrk', 'nginx'],
  test: ['wrk', 'nginx', 'chromium'],
};
const COMMAND_OF_PACKAGE = { wrk: 'wrk', 'nginx': 'nginx', chromium: 'chromium' };

const profile = process.argv.includes('--for') ? process.argv[process.argv.indexOf('--for') + 1] : 'bench';
if (!DEBIAN_PACKAGES[profile]) {
  console.error(`setup: unknown profile "${profile}"; use --for bench or --for test`);
  process.exit(2);
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const say = (msg) => console.log(`setup: ${msg}`);

function installNodeModules() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  say('installing npm packages (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

function installDebianPackages(packages) {
  const missing = packages.filter((pkg) => !has(COMMAND_OF_PACKAGE[pkg]));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    say(`cannot install ${missing.join(', ')} (needs root and apt-get); the parts that use them will skip`);
    return;
  }
  say(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  if (!install || install.status !== 0) say(`apt-get could not install ${missing.join(', ')}; the parts that use them will skip`);
}

installNodeModules();
installDebianPackages(DEBIAN_PACKAGES[profile]);
