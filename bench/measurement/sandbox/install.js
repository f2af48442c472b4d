// A side's install (perfgate.config's "install", `npm ci` by default) in the sandbox: its
// lifecycle scripts (the project's prepare/postinstall, its packages' install scripts) are the
// pull request's code. Bubblewrap as for the servers (./bubblewrap.js wrap; as root dropped to
// the sandbox's uid), with: the side's directory writable, a scratch directory for HOME, TMPDIR
// and npm's cache, the system's /usr and /etc, Node and the installer read-only, and nothing
// else (no home and its ~/.npmrc, ~/.ssh, ~/.config, no work directory, no results). Its
// network reaches the npm registry and nothing else (./registry-route.js); the environment is the
// sandbox's (./bubblewrap.js sandboxEnv) plus where npm's registry is, never npm's credentials. npm's
// settings that run a program or name a file of the harness are set in the environment, which
// npm ranks above every .npmrc (the side's own, and a git dependency's that npm installs in a
// clone) and hands on to the npm it starts for a git dependency; what else a .npmrc sets acts
// inside the sandbox only.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { errors } from '../../core/errors.js';
import { registerCleanup } from '../process/children.js';
import { runLimitedInstall } from './server-limits.js';
import { asRoot, checkPassable, giveScratch, SANDBOX_UID, sandboxEnv, wrap } from './bubblewrap.js';
import { openRegistryRoute } from './registry-route.js';
import { chownTree } from './view.js';

// npm settings that say where the registry is and how to trust it (the certificate authorities);
// anything else of npm's (tokens, `_auth`, client keys, userconfig) stays out, and its proxy is
// the harness's registry route (./registry-route.js).
const NPM_REACH =
  /^npm_config_(?:(?:@[^:]+:)?registry|fetch[-_]\w+|strict[-_]ssl|cafile|ca|update[-_]notifier|loglevel)$/i;
const REACH = /^(?:NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;
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

// Its node_modules is bound into the side's servers' sandboxes with what it links to
// (./bubblewrap.js sideSandbox): after every install, a link out of its directory (npm links a
// `file:` directory; `file:/` would bind the whole machine) is refused, never bound. The harness
// reads its package-lock.json (the report's changed packages): never through a link.
function refuseLinksOut(dir) {
  const links = outgoingLinks(dir);
  if (lstatSync(join(dir, 'package-lock.json'), { throwIfNoEntry: false })?.isSymbolicLink())
    links.push('package-lock.json (a link)');
  if (links.length)
    throw errors.installFailed(
      `the dependencies of ${dir}`,
      `the install left links out of the side's directory, which perfgate refuses to show its servers: ${links.join(', ')}; a \`file:\` dependency or override that names a directory is linked, not copied: pack it (npm pack) and name the .tgz instead`,
    );
}

// "node_modules/name -> target" of each package linked where ./bubblewrap.js linkedDirs would bind
// something out of `dir` (the directory that holds the link's target).
function outgoingLinks(dir) {
  const modules = join(dir, 'node_modules');
  const stat = lstatSync(modules, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isSymbolicLink()) return [`node_modules -> ${readlinkSync(modules)}`];
  const inside = `${realpathSync(dir)}/`;
  return readdirSync(modules)
    .flatMap((entry) =>
      entry.startsWith('@') && lstatSync(join(modules, entry)).isDirectory()
        ? readdirSync(join(modules, entry)).map((member) => `${entry}/${member}`)
        : [entry],
    )
    .filter((name) => lstatSync(join(modules, name)).isSymbolicLink() && existsSync(join(modules, name)))
    .filter(
      (name) => !`${dirname(resolve(modules, dirname(name), readlinkSync(join(modules, name))))}/`.startsWith(inside),
    )
    .map((name) => `node_modules/${name} -> ${resolve(modules, dirname(name), readlinkSync(join(modules, name)))}`);
}

// The registries an install may reach: npm's (as the harness's npm says) and its scopes'.
function registriesOf(env) {
  const scoped = Object.entries(env)
    .filter(([name]) => /^npm_config_@[^:]+:registry$/i.test(name))
    .map(([, url]) => url);
  return [...new Set([env.npm_config_registry, ...scoped].filter(Boolean))];
}

// The git npm runs (to fetch a git dependency): the system's, by its path, never one a .npmrc names.
const gitProgram = (env) => {
  const [home] = installerDirs('git', env);
  return home ? join(home, 'bin', 'git') : '/usr/bin/git';
};

// npm's settings that would run a program, fixed for the install (its config files are the harness's, empty).
const npmFixed = (install, env) => ({
  npm_config_git: gitProgram(env),
  npm_config_update_notifier: 'false',
  // Where perfgate's own command asks for no install scripts, a git dependency's install gets none either.
  ...(install.includes('--ignore-scripts') ? { npm_config_ignore_scripts: 'true' } : {}),
});

/**
 * Runs `install` (argv) in the side's directory `dir`, sandboxed.
 * @param {{env?: object, visible?: string[]}} options  visible: files and directories outside `dir`
 *   the install reads (an override's tarball or git repository), bound read-only
 * @returns the spawnSync result
 */
export function installSandboxed(install, dir, { env = process.env, visible = [] } = {}) {
  // The harness's own directory, passable by the sandbox's uid: the install's scratch directory
  // (its to write) and npm's empty user and global config (read-only).
  const parent = mkdtempSync(join(tmpdir(), 'perfgate-install-'));
  chmodSync(parent, 0o711);
  const unregister = registerCleanup(() => rmSync(parent, { recursive: true, force: true }));
  const scratch = join(parent, 'scratch');
  const config = join(parent, 'npmrc');
  let closeRoute = () => {};
  try {
    mkdirSync(scratch);
    mkdirSync(config);
    for (const file of ['user', 'global']) writeFileSync(join(config, file), '');
    giveScratch(scratch);
    const registry = harnessRegistry(env);
    const route = openRegistryRoute(parent, registriesOf({ ...env, ...registry }), env);
    closeRoute = route.close;
    // As root, the sandbox's uid installs: the side's directory is made its own.
    if (asRoot()) {
      for (const path of [dir, scratch, ...visible]) checkPassable(path);
      chownTree(dir, SANDBOX_UID);
    }
    const sandbox = {
      readOnly: [...installerDirs(install[0], env), ...installerDirs('git', env), config, route.dir, ...visible],
      writable: [dir, scratch],
      network: 'own',
    };
    const reach = Object.fromEntries(Object.entries(env).filter(([name]) => NPM_REACH.test(name) || REACH.test(name)));
    const installEnv = {
      ...sandboxEnv(env),
      ...registry,
      ...reach,
      HOME: scratch,
      TMPDIR: scratch,
      npm_config_cache: join(scratch, 'npm-cache'),
      ...npmFixed(install, env),
      npm_config_userconfig: join(config, 'user'),
      npm_config_globalconfig: join(config, 'global'),
    };
    const argv = wrap(route.command(install), sandbox, { cwd: dir });
    // A worktree's .git names a directory the sandbox does not show, and git (npm's, for a git
    // dependency) then fails in the side's directory: it is set aside while the install runs.
    const dotGit = join(dir, '.git');
    const gitLink = lstatSync(dotGit, { throwIfNoEntry: false }) ? join(parent, 'dot-git') : null;
    if (gitLink) renameSync(dotGit, gitLink);
    let installed;
    try {
      installed = runLimitedInstall(argv, (command, limits) =>
        spawnSync(command[0], command.slice(1), { cwd: dir, env: installEnv, encoding: 'utf8', ...limits }),
      );
    } finally {
      if (gitLink) {
        rmSync(dotGit, { recursive: true, force: true });
        renameSync(gitLink, dotGit);
      }
    }
    closeRoute();
    const refused = route.refused();
    if (installed.status !== 0 && refused.length)
      throw errors.installFailed(
        `the dependencies of ${dir}`,
        `it tried to reach ${refused.join(', ')}, and a sandboxed install reaches only the npm registry (${registriesOf({ ...env, ...registry }).join(', ')}): a dependency fetched from elsewhere (git, a tarball's URL, an install script's download) cannot be installed there; publish it to the registry, or vendor it into the repository as a tarball and name it with file:`,
      );
    refuseLinksOut(dir);
    return installed.status === 0 ? installed : keepNpmLog(installed, scratch);
  } finally {
    closeRoute();
    unregister();
    rmSync(parent, { recursive: true, force: true });
  }
}
