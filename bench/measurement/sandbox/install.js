// A side's install (perfgate.config's "install", `npm ci` by default) in the sandbox: its
// lifecycle scripts (the project's prepare/postinstall, its packages' install scripts) are the
// pull request's code. Bubblewrap as for the servers (./bubblewrap.js wrap; as root dropped to
// the sandbox's uid), with: the side's directory writable, a scratch directory for HOME, TMPDIR
// and npm's cache, the system's /usr and /etc, Node and the installer read-only, and nothing
// else (no home and its ~/.npmrc, ~/.ssh, ~/.config, no work directory, no results). The
// network is the harness's (the registry must be reachable); the environment is the sandbox's
// (./bubblewrap.js sandboxEnv) plus where npm's registry is, never npm's credentials.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { errors } from '../../core/errors.js';
import { registerCleanup } from '../process/children.js';
import { asRoot, checkPassable, giveScratch, linkedDirs, SANDBOX_UID, sandboxEnv, wrap } from './bubblewrap.js';
import { chownTree } from './view.js';

// npm settings that say where the registry is and how to reach it (proxies, the certificate
// authorities to trust); anything else of npm's (tokens, `_auth`, client keys, userconfig) stays out.
const NPM_REACH =
  /^npm_config_(?:(?:@[^:]+:)?registry|fetch[-_]\w+|strict[-_]ssl|cafile|ca|noproxy|https?[-_]proxy|proxy|update[-_]notifier|loglevel)$/i;
const REACH = /^(?:https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;
const SYSTEM = ['/usr', '/etc'];

// Answers of `npm config get registry` by what npm reads it from (which npm, its home, its settings):
// one per run, however many sides are installed, and an npm that has no answer is not asked again.
const registries = new Map();
const npmSettings = (env) =>
  JSON.stringify([
    env.PATH,
    env.HOME,
    ...Object.entries(env)
      .filter(([name]) => /^npm_config_/i.test(name))
      .sort(),
  ]);

/**
 * The registry the harness's npm uses (set in its ~/.npmrc, which the sandbox does not see), as the
 * install's environment setting; none when `env` names it already (it is passed on as it is).
 * @returns {{npm_config_registry?: string}}
 */
export function harnessRegistry(env) {
  if (env.npm_config_registry) return {};
  const key = npmSettings(env);
  if (!registries.has(key)) {
    const asked = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env });
    registries.set(key, asked.stdout?.trim() || null);
  }
  const registry = registries.get(key);
  return registry ? { npm_config_registry: registry } : {};
}

// The installation a command found on PATH belongs to (npm's package, yarn's), when not the system's.
function installerDirs(command, env) {
  const found = command.includes('/')
    ? command
    : (env.PATH ?? '')
        .split(delimiter)
        .map((dir) => join(dir, command))
        .find((path) => existsSync(path));
  if (!found) return [];
  const home = dirname(dirname(realpathSync(found)));
  return SYSTEM.some((dir) => home === dir || home.startsWith(`${dir}/`)) ? [] : [home];
}

// The resolver's file, when /etc/resolv.conf links out of /etc (systemd-resolved's stub).
function resolverDirs() {
  const file = '/etc/resolv.conf';
  if (!existsSync(file) || !lstatSync(file).isSymbolicLink()) return [];
  const target = dirname(realpathSync(file));
  return target.startsWith('/etc/') ? [] : [target];
}

const NPM_LOG = /[^\s'"]*\/npm-cache\/_logs\/[^\s'"]+\.log/g;
const LOG_BYTES = 10 * 1024 * 1024;

// npm's log of a failed install is in the scratch directory, removed with it: a copy is kept
// where the harness keeps its own files, and the output names the copy. Only a regular file
// of the scratch directory's logs is copied (the install wrote it, and could have made it a link).
function keepNpmLog(installed, scratch) {
  const logs = join(scratch, 'npm-cache', '_logs');
  const kept = new Map();
  const keep = (path) => {
    if (!kept.has(path)) {
      const named = join(logs, basename(path));
      const stat = lstatSync(named, { throwIfNoEntry: false });
      if (dirname(path) !== logs || !stat?.isFile() || stat.size > LOG_BYTES) return path;
      const copy = join(mkdtempSync(join(tmpdir(), 'perfgate-install-log-')), basename(path));
      copyFileSync(named, copy);
      kept.set(path, copy);
    }
    return kept.get(path);
  };
  const named = (text) => text?.replace(NPM_LOG, keep);
  return { ...installed, stdout: named(installed.stdout), stderr: named(installed.stderr) };
}

/**
 * Runs `install` (argv) in the side's directory `dir`, sandboxed.
 * @returns the spawnSync result
 */
export function installSandboxed(install, dir, env = process.env) {
  const scratch = mkdtempSync(join(tmpdir(), 'perfgate-install-'));
  const unregister = registerCleanup(() => rmSync(scratch, { recursive: true, force: true }));
  try {
    giveScratch(scratch);
    // As root, the sandbox's uid installs: the side's directory is made its own.
    if (asRoot()) {
      for (const path of [dir, scratch]) checkPassable(path);
      chownTree(dir, SANDBOX_UID);
    }
    const sandbox = {
      readOnly: [...installerDirs(install[0], env), ...resolverDirs()],
      writable: [dir, scratch],
      network: 'host',
    };
    const reach = Object.fromEntries(Object.entries(env).filter(([name]) => NPM_REACH.test(name) || REACH.test(name)));
    const installEnv = {
      ...sandboxEnv(env),
      ...harnessRegistry(env),
      ...reach,
      HOME: scratch,
      TMPDIR: scratch,
      npm_config_cache: join(scratch, 'npm-cache'),
      npm_config_userconfig: join(scratch, '.npmrc'),
      npm_config_update_notifier: 'false',
    };
    const argv = wrap(install, sandbox, { cwd: dir });
    const installed = spawnSync(argv[0], argv.slice(1), { cwd: dir, env: installEnv, encoding: 'utf8' });
    // Its node_modules is bound into the side's servers' sandboxes with what it links to
    // (./bubblewrap.js sideSandbox): an install may link only inside its directory.
    // The harness reads its package-lock.json (the report's changed packages): never through a link.
    const lockfile = join(dir, 'package-lock.json');
    const outside = installed.status === 0 ? linkedDirs(dir) : [];
    if (lstatSync(lockfile, { throwIfNoEntry: false })?.isSymbolicLink()) outside.push('package-lock.json, a link');
    if (outside.length)
      throw errors.installFailed(
        `the dependencies of ${dir}`,
        `the sandboxed install left links out of the side's directory (${outside.join(', ')})`,
      );
    return installed.status === 0 ? installed : keepNpmLog(installed, scratch);
  } finally {
    unregister();
    rmSync(scratch, { recursive: true, force: true });
  }
}
