// The file system a sandboxed process sees, made afresh for each process and removed after it.
// Its root is a directory of its own that bubblewrap binds at / (writable), not an empty
// read-only one, so that a write outside the places a side may write does not just fail unseen:
// the kernel puts it there, and when the process has ended the harness finds it and reports the
// side (the side's code need not cooperate). In that root:
//   - the side's tree, copied, with its node_modules and .git bound read-only at their place: a
//     server that writes its own data file (json-server's db.json) works, its writes go with the
//     copy, and every server starts from the side's tree as committed;
//   - decoys of the harness's places (the results directory, the working directory, home, the
//     runner's work and temp directories, the folders of GitHub's command files), as empty
//     directories, so that an attempt on one lands there and is named;
//   - the mount points bubblewrap makes for what is bound over it: /usr and /etc, the runtime and
//     what the tree links to read-only, the scratch directory (HOME, TMPDIR, the ready file).
// A copy, not an overlay: bubblewrap mounts overlays from 0.10 on (--overlay-src), and Debian 12
// and Ubuntu 24.04 ship 0.8 and 0.9. Without node_modules a tree is small (perfgate's: 3 MB in
// 376 files, against 400 MB in 6,853 files for its node_modules, and 78 MB in 1,697 files for
// its .perfgate), so those stay shared. Given a size (as root: the side's limit, ./limits.js), a
// view is a tmpfs of its own of that size: a side that fills it fills only its own.
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statfsSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { registerCleanup } from '../process/children.js';

// Directories of a tree that are shared read-only instead of copied: installed packages (large,
// and a server has no business changing them) and git's own data, anywhere; perfgate's own
// folder (built servers, tools, history) at the top.
const SHARED = new Set(['node_modules', '.git']);
const SHARED_AT_TOP = new Set(['.perfgate']);
// At most this many entries of a root are looked at, and paths named, after a process ended.
const WALK_LIMIT = 20_000;
const NAMED = 5;

// Where views are made. A view is made for every server start (two in each duet round) while the
// harness waits, and a tree's few hundred files take ~0.35 s to create on this machine's disk
// against ~15 ms in RAM: so in the RAM file system when there is one with room (a container's is
// often 64 MB), else in the temporary directory.
export const RAM_DIR = '/dev/shm';
const RAM_ROOM = 512 * 1024 ** 2;
export function viewParent(ramDir = RAM_DIR) {
  try {
    accessSync(ramDir, constants.W_OK);
    const { bavail, bsize } = statfsSync(ramDir);
    if (bavail * bsize >= RAM_ROOM) return ramDir;
  } catch {
    // none, or not writable: the disk
  }
  return tmpdir();
}

const inside = (path, dir) => path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);

// The harness's places, from its environment: where a side would try to forge a result or the
// step's outputs, or read the runner's files.
function harnessPlaces(env) {
  const fileDir = (name) => (env[name] ? [[dirname(env[name]), `the folder of ${name}`]] : []);
  return [
    [process.cwd(), "the harness's working directory"],
    ...(env.HOME ? [[env.HOME, "the runner user's home"]] : []),
    ...['GITHUB_WORKSPACE', 'RUNNER_TEMP', 'RUNNER_TOOL_CACHE'].flatMap((name) =>
      env[name] ? [[env[name], name]] : [],
    ),
    ...['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'].flatMap(fileDir),
  ].map(([path, what]) => ({ path, what }));
}

// Copies the directories, regular files and links of `from` into `to`; returns the shared
// directories found (not copied), by their path under `from`.
function copyTree(from, to) {
  const shared = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(from, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && (SHARED.has(entry.name) || (!dir && SHARED_AT_TOP.has(entry.name)))) {
        shared.push(path);
        mkdirSync(join(to, path));
      } else if (entry.isDirectory()) {
        mkdirSync(join(to, path), { mode: lstatSync(join(from, path)).mode & 0o777 });
        walk(path);
      } else if (entry.isFile()) copyFileSync(join(from, path), join(to, path), constants.COPYFILE_FICLONE);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(join(from, path)), join(to, path));
      // Sockets, FIFOs and devices are not a server's files: left out.
    }
  };
  walk('');
  return shared;
}

// Every entry under `dir`, depth first, without following links.
function* entries(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    yield { path, isDirectory: entry.isDirectory() };
    if (entry.isDirectory()) yield* entries(path);
  }
}

/** Gives `dir` and everything in it (links themselves, never their targets) to `uid`. */
export function chownTree(dir, uid) {
  lchownSync(dir, uid, uid);
  for (const { path } of entries(dir)) lchownSync(path, uid, uid);
}

/**
 * Makes the file system of one sandboxed process of `sandbox` (bench/measurement/sandbox/bubblewrap.js
 * sideSandbox's): its root, with a copy of the side's tree and the decoys, and its scratch
 * directory. owner: the uid the sandbox runs as when it is not the harness's.
 * @param {{tree?: string, watched?: {path: string, what: string}[]}} sandbox
 *   watched: more of the harness's places (the results directory)
 * @param {{owner?: number, env?: object, sizeBytes?: number}} [how]  sizeBytes: mount a tmpfs of
 *   that size for it (needs the right to mount; without it, the view is not limited)
 */
export function openView(sandbox, { owner, env = process.env, sizeBytes } = {}) {
  const dir = mkdtempSync(join(viewParent(), 'perfgate-sandbox-'));
  const view = { dir, root: join(dir, 'root'), scratch: join(dir, 'scratch'), mountPoints: [] };
  view.unregister = registerCleanup(() => removeView(view));
  try {
    view.sizeLimited = sizeBytes !== undefined && mountSized(dir, sizeBytes);
    mkdirSync(view.root);
    mkdirSync(view.scratch);
    const tree = sandbox.tree ? realpathSync(sandbox.tree) : null;
    if (tree) {
      mkdirSync(join(view.root, tree), { recursive: true });
      // Named as given, without a trailing slash: a tree named '/x/' is the tree '/x', not a second path.
      view.tree = { named: resolve(sandbox.tree), real: tree, shared: copyTree(tree, join(view.root, tree)) };
    }
    view.decoys = [...(sandbox.watched ?? []), ...harnessPlaces(env)].filter(
      ({ path }) => path !== '/' && !(tree && (inside(path, tree) || inside(tree, path))),
    );
    for (const { path } of view.decoys) mkdirSync(join(view.root, path), { recursive: true });
    if (owner !== undefined) chownTree(dir, owner);
  } catch (error) {
    view.unregister();
    removeView(view);
    throw error;
  }
  return view;
}

// A tmpfs of the side's size at `dir` (the mount fails without the right to mount: no limit then).
function mountSized(dir, sizeBytes) {
  const options = `size=${sizeBytes},mode=0700`;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'perfgate-view', dir], { stdio: 'ignore' }).status === 0;
}

function removeView(view) {
  if (view.sizeLimited) spawnSync('umount', ['--lazy', view.dir], { stdio: 'ignore' });
  removeWritten(view.dir);
}

/** Whether the process filled its view, where its size is limited. */
export function viewFull(view) {
  if (!view?.sizeLimited || view.closed) return false;
  try {
    return statfsSync(view.dir).bavail === 0;
  } catch {
    return false;
  }
}

/** The bubblewrap arguments that lay the view's root at /: first of all, everything else is bound over it. */
export function viewRoot(view) {
  return ['--bind', view.root, '/'];
}

/** The bubblewrap arguments that share the tree's node_modules and .git read-only over its copy. */
export function viewTree(view) {
  if (!view.tree) return [];
  const { named, real, shared } = view.tree;
  const tops = named === real ? [real] : [real, named];
  return [
    // Named through a link (a side given by another path), it is the same copy there; first, so
    // that the shared directories are bound over it at either path, not hidden under it.
    ...(named === real ? [] : ['--bind', join(view.root, real), named]),
    ...shared.flatMap((path) => tops.flatMap((top) => ['--ro-bind', join(real, path), join(top, path)])),
  ];
}

// What the harness and bubblewrap made in the root: the decoys, the tree, each mount point, and
// the directories above them.
function madeByHarness(view) {
  const made = new Set(['/']);
  const tree = view.tree ? [view.tree.real, view.tree.named] : [];
  for (const point of [...view.mountPoints, ...view.decoys.map(({ path }) => path), ...tree])
    for (let at = point; at !== '/'; at = dirname(at)) made.add(at);
  return made;
}

/**
 * Removes the view once its process has ended, and says what the process wrote outside the
 * places it may write (its tree's copy and its scratch directory): one line, or none.
 */
export function closeView(view) {
  if (view.closed) return null;
  view.closed = true;
  const made = madeByHarness(view);
  const written = [];
  let looked = 0;
  const walk = (dir) => {
    let found;
    try {
      found = readdirSync(join(view.root, dir), { withFileTypes: true });
    } catch {
      try {
        // A directory the process closed (mode 000); the harness owns the view.
        chmodSync(join(view.root, dir), 0o700);
        found = readdirSync(join(view.root, dir), { withFileTypes: true });
      } catch {
        return;
      }
    }
    for (const entry of found) {
      if (++looked > WALK_LIMIT) return;
      const path = join(dir, entry.name);
      if (view.tree && inside(path, view.tree.real)) continue;
      if (!made.has(path)) written.push(path);
      else if (entry.isDirectory()) walk(path);
    }
  };
  try {
    walk('/');
  } finally {
    view.unregister();
    removeView(view);
  }
  if (!written.length) return null;
  written.sort();
  const named = written.slice(0, NAMED).map((path) => {
    // The innermost decoy it is in names it (the results directory inside the working directory).
    const decoy = view.decoys
      .filter((each) => inside(path, each.path))
      .sort((a, b) => b.path.length - a.path.length)[0];
    return decoy ? `${path} (${decoy.what})` : path;
  });
  const more = written.length > NAMED ? `, and ${written.length - NAMED} more` : '';
  const overflow = looked > WALK_LIMIT ? ' (and more than perfgate looked at)' : '';
  return `wrote outside its tree and scratch directory (into a throwaway copy of the file system; nothing reached the runner): ${named.join(', ')}${more}${overflow}`;
}

/**
 * Removes a directory a side's process wrote in. It may have left directories that cannot be
 * emptied (mode 000): the harness owns the directory, so it opens them from the top down first,
 * never following a link.
 */
export function removeWritten(dir) {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    const open = (at) => {
      chmodSync(at, 0o700);
      for (const entry of readdirSync(at, { withFileTypes: true })) if (entry.isDirectory()) open(join(at, entry.name));
    };
    open(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
