// The sandbox a side's code runs in: bubblewrap (Debian package bubblewrap), the tool Flatpak
// builds its sandboxes with. Without root it makes its own user namespace; run as root, perfgate
// first drops to an unprivileged uid (setpriv), so that the side never holds the runner's
// identity. Inside: a PID namespace (the side sees only its own processes, and all of them die
// with it), a file system of its own per process (./view.js: a copy of the side's tree to write
// in, its packages and the runtime read-only, one scratch directory, the system's /usr and /etc
// read-only, and nothing else of the machine: no work directory, tool cache, home or
// credentials; what it writes elsewhere is reported). Its network is the one it is started in: the private,
// loopback-only network namespace a measurement runs in (./private-network.js), or a namespace
// of its own (the describe step).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { errors } from '../../core/errors.js';
import { onlyLoopback } from './private-network.js';
import { SIDE_LIMITS } from './limits.js';
import { seccompFilter } from './seccomp.js';
import { openView, viewRoot, viewTree } from './view.js';

// What the sandbox runs as when perfgate runs as root: the kernel's overflow user, which owns nothing.
export const SANDBOX_UID = 65534;
const SYSTEM_DIRS = ['/usr', '/etc'];
const ROOT_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
// The environment a sandboxed process keeps of the harness's: nothing that names the runner's
// files or carries a token (GITHUB_*, ACTIONS_*, RUNNER_*, npm's and git's settings are dropped).
const KEPT_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'NODE_OPTIONS'];

export const asRoot = () => process.getuid?.() === 0;

let probed;
/** Why the sandbox cannot run here, as one line, or null when it can. */
export function sandboxUnavailable() {
  probed ??= probe();
  return probed;
}

function probe() {
  const check = spawnSync(...splitArgv(wrap(['/usr/bin/true'], { readOnly: [], network: 'own' }, { cwd: '/' })), {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (check.error?.code === 'ENOENT') return 'bubblewrap is not installed (Debian package bubblewrap)';
  if (check.status === 0) return null;
  const said = (check.stderr || check.error?.message || `exit code ${check.status}`).trim().split('\n').at(-1);
  return `bubblewrap cannot create namespaces here (${said})`;
}

const splitArgv = (argv) => [argv[0], argv.slice(1)];

// /bin, /lib, ... are links into /usr on a merged-/usr system, directories on an older one.
function rootEntries() {
  return ROOT_LINKS.filter((path) => existsSync(path)).flatMap((path) =>
    lstatSync(path).isSymbolicLink() ? ['--symlink', readlinkSync(path), path] : ['--ro-bind', path, path],
  );
}

// A directory is bound at its real path, so that links into it resolve inside as outside.
const real = (path) => (existsSync(path) ? realpathSync(path) : path);

// The installation of the Node that runs the harness (its bin/node's grandparent), when it is
// not the system's (setup-node's tool cache): that one directory, never the cache around it.
function runtimeDirs(command) {
  const binary = real(command[0].includes('/') ? command[0] : process.execPath);
  const home = dirname(dirname(binary));
  return SYSTEM_DIRS.some((dir) => home === dir || home.startsWith(`${dir}/`)) ? [] : [home];
}

// The destinations of bubblewrap's mount arguments (what it makes in the root).
const TWO_PATHS = new Set(['--bind', '--ro-bind', '--dev-bind', '--symlink']);
const ONE_PATH = new Set(['--proc', '--dev', '--tmpfs', '--dir', '--remount-ro']);
function mountPoints(args) {
  const points = [];
  for (let at = 0; at < args.length; at++) {
    const operands = TWO_PATHS.has(args[at]) ? 2 : ONE_PATH.has(args[at]) ? 1 : 0;
    if (!operands) continue;
    at += operands;
    points.push(args[at]);
  }
  return points;
}

/**
 * The argv that runs `command` in the sandbox.
 * @param {string[]} command
 * @param {{readOnly: string[], writable?: string[], network: 'own' | 'shared' | 'host'}} sandbox
 *   readOnly: what the side's tree links to, the runtime; writable: directories the harness gives it besides scratch
 * @param {{view?: object, cwd?: string, detached?: boolean}} where  view: the process's file system (./view.js openView):
 *   its root with the side's tree, and its scratch directory; without one, an empty read-only root;
 *   detached: started in a session of its own (process/children.js spawnGroup)
 */
export function wrap(command, sandbox, { view, cwd, detached }) {
  // A server shares the network it is started in: that must be a private one ('host': an
  // install, which needs the registry, shares the harness's on purpose).
  if (sandbox.network === 'shared' && !onlyLoopback())
    throw new Error(
      'a sandboxed server must start inside the private network namespace (bench/measurement/sandbox/private-network.js)',
    );
  // Each at the path the side names it by and at its real path, so links resolve either way.
  const readOnly = [...new Set([...runtimeDirs(command), ...sandbox.readOnly].flatMap((dir) => [dir, real(dir)]))];
  const mounts = [
    ...(view ? viewRoot(view) : []),
    ...SYSTEM_DIRS.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...rootEntries(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...readOnly.flatMap((dir) => ['--ro-bind', real(dir), dir]),
    ...(view ? viewTree(view) : []),
    ...[...(sandbox.writable ?? []), ...(view ? [view.scratch] : [])].flatMap((dir) => ['--bind', dir, dir]),
    ...(view ? [] : ['--remount-ro', '/']),
  ];
  if (view) view.mountPoints = mountPoints(mounts);
  const filter = seccompFilter();
  const bwrap = [
    'bwrap',
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(sandbox.network === 'own' ? ['--unshare-net'] : []),
    '--die-with-parent',
    // No terminal to type into (TIOCSTI): a server already starts in a session of its own
    // (process/children.js spawnGroup), whose process group the harness stops and watches.
    ...(detached ? [] : ['--new-session']),
    // No nested user namespace, where it would hold every capability again.
    '--disable-userns',
    // Nor the system calls of ./seccomp.js, where its filter can be compiled (read from fd 3, below).
    ...(filter.file ? ['--seccomp', '3'] : []),
    '--cap-drop',
    'ALL',
    ...mounts,
    ...(cwd ? ['--chdir', cwd] : []),
    '--',
    ...command,
  ];
  // A side of a comparison has a uid of its own (./side-networks.js); an install or a lone side, this one.
  const uid = sandbox.uid ?? SANDBOX_UID;
  const dropped = asRoot() ? ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', ...bwrap] : bwrap;
  // The filter's file opened as fd 3 by the harness's user, before it drops to the sandbox's.
  return filter.file ? ['/bin/sh', '-c', 'exec "$@" 3< "$0"', filter.file, ...dropped] : dropped;
}

/**
 * The file system of one process of `sandbox` (./view.js), owned by the uid the sandbox runs as;
 * as root, a tmpfs of the side's size limit (./limits.js).
 */
export const sandboxView = (sandbox) =>
  asRoot()
    ? openView(sandbox, { owner: sandbox.uid ?? SANDBOX_UID, sizeBytes: SIDE_LIMITS.viewBytes })
    : openView(sandbox);

/** What a sandboxed process keeps of the harness's environment `env`. */
export function sandboxEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => KEPT_ENV.includes(name)));
}

/** Makes `dir` the sandbox's to write (as root, the sandbox's uid owns it). */
export function giveScratch(dir, uid = SANDBOX_UID) {
  if (asRoot()) chownSync(dir, uid, uid);
}

/** True on a GitHub Actions runner (CI=true and GITHUB_ACTIONS set). */
const onRunner = (env) => env.CI === 'true' && Boolean(env.GITHUB_ACTIONS);

/**
 * Whether the untrusted sides of a run are sandboxed here: { sandboxed: true }, or { sandboxed:
 * false, note } with the one line that says why. On a runner an unsandboxed untrusted side is
 * refused unless the workflow opts out with PERFGATE_ALLOW_UNSANDBOXED=true.
 */
export function sandboxDecision(env = process.env, reason = sandboxUnavailable()) {
  if (!reason) return { sandboxed: true };
  if (onRunner(env) && env.PERFGATE_ALLOW_UNSANDBOXED !== 'true') throw errors.sandboxRequired(reason);
  return { sandboxed: false, note: `sandbox: none, the code under test runs as the runner's user: ${reason}` };
}

// The directories outside a side's tree that its node_modules links into: the project's
// node_modules when the side reuses it, or its packages one by one (a package comparison).
export function linkedDirs(root) {
  const modules = join(root, 'node_modules');
  if (!existsSync(modules)) return [];
  const target = (link) => resolve(dirname(link), readlinkSync(link));
  if (lstatSync(modules).isSymbolicLink()) return [target(modules)];
  const entries = readdirSync(modules).flatMap((entry) =>
    entry.startsWith('@') && !lstatSync(join(modules, entry)).isSymbolicLink()
      ? readdirSync(join(modules, entry)).map((member) => join(modules, entry, member))
      : [join(modules, entry)],
  );
  const outside = entries
    .filter((entry) => lstatSync(entry).isSymbolicLink() && existsSync(entry))
    .map((entry) => dirname(target(entry)))
    .filter((dir) => !`${dir}/`.startsWith(`${realpathSync(root)}/`));
  return [...new Set(outside)];
}

/**
 * The sandbox of a side's processes: its tree (each process writes into a copy of its own,
 * ./view.js) and, read-only, what its tree links to; it shares the network it is started in
 * (the measurement's private one).
 * @param {{label: string, root: string, runtime?: object}} side
 */
export function sideSandbox(side) {
  // A runtime from perfgate's cache (bench/measurement/runtime/): its installation, bound with the side's.
  const runtime = side.runtime && !side.runtime.system ? [dirname(dirname(side.runtime.binary))] : [];
  const readOnly = [...linkedDirs(side.root), ...runtime];
  if (asRoot()) for (const dir of [side.root, ...readOnly, tmpdir()]) checkPassable(dir);
  return { side: side.label, tree: side.root, readOnly, network: 'shared' };
}

/** `sides` with the results directory `outDir` watched by each sandboxed side's view (./view.js). */
export function watchResults(sides, outDir) {
  const watched = { path: resolve(outDir), what: 'the results directory' };
  return Object.fromEntries(
    Object.entries(sides).map(([key, side]) => [
      key,
      side.sandbox
        ? { ...side, sandbox: { ...side.sandbox, watched: [...(side.sandbox.watched ?? []), watched] } }
        : side,
    ]),
  );
}

// Run as root, the sandbox's uid must be able to pass through every directory above one it
// binds (bubblewrap opens them as that uid): say which are closed, before anything starts, and
// the fix that works (TMPDIR moves only what perfgate makes; a project's own place stays).
export function checkPassable(dir) {
  const closed = [];
  for (let at = dirname(real(dir)); ; at = dirname(at)) {
    const { mode, uid } = statSync(at);
    if (!(mode & 0o001) && uid !== SANDBOX_UID) closed.unshift(at);
    if (at === '/') break;
  }
  // What perfgate makes in the temporary directory, closed only above it: TMPDIR is the fix.
  const temp = real(tmpdir());
  const above = (at) => `${temp}/`.startsWith(at === '/' ? '/' : `${at}/`);
  const inTemp = `${real(dir)}/`.startsWith(`${temp}/`) && closed.every(above);
  if (closed.length) throw errors.sandboxUnreachable(dir, closed, SANDBOX_UID, inTemp);
}
