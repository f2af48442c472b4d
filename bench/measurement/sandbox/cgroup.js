// Each sandboxed server in a cgroup of its own, made by the harness before the server starts and
// removed after it: its cores enforced (taskset only sets a starting affinity, which a process may
// change; a cpuset it cannot leave), its memory and its number of processes and threads limited
// (./limits.js). The server's first process joins the cgroup itself before anything of the side
// runs (inCgroup, outermost in its command), so nothing escapes it by forking early. cgroup v2
// (GitHub's runners: /sys/fs/cgroup/cgroup.controllers) or v1 (cpuset, memory and pids
// hierarchies); either needs root. Where neither can be written, the run says so in one line.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { byteSize } from '../../core/format.js';
import { registerCleanup } from '../process/children.js';
import { LIMIT_REACHED, SIDE_LIMITS } from './limits.js';

const ROOT = '/sys/fs/cgroup';
const CONTROLLERS = ['cpuset', 'memory', 'pids'];
const REMOVE_TRIES = 50;
const REMOVE_WAIT_MS = 20;

const read = (dir, file) => readFileSync(join(dir, file), 'utf8').trim();
const write = (dir, file, value) => writeFileSync(join(dir, file), value);
// "oom_kill 2" in a flat keyed file (memory.events, pids.events, memory.oom_control) -> 2.
const counter = (text, key) => Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// This process's cgroup in the v1 hierarchy of `controller` ("4:memory:/a/b" -> "/a/b").
function ownV1Path(controller) {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((each) => each.split(':')[1]?.split(',').includes(controller));
  return line ? line.split(':').slice(2).join(':') : '/';
}

const version = () =>
  existsSync(join(ROOT, 'cgroup.controllers'))
    ? 'v2'
    : CONTROLLERS.every((controller) => existsSync(join(ROOT, controller, 'cgroup.procs')))
      ? 'v1'
      : null;

// v1: a group per controller, nested in the harness's own (whatever limits the harness runs
// under, the side stays under too). v2: a group below one parent per harness made at the root,
// whose controllers it enables for its children (a group that holds processes cannot).
let v2Parent;
function v2ParentDir() {
  if (v2Parent) return v2Parent;
  // The root passes on only the controllers its subtree_control names (systemd enables cpuset
  // only when a unit asks for it): root may enable the others there.
  const enabled = read(ROOT, 'cgroup.subtree_control').split(' ');
  const available = read(ROOT, 'cgroup.controllers').split(' ');
  const enable = CONTROLLERS.filter((controller) => available.includes(controller) && !enabled.includes(controller));
  if (enable.length) write(ROOT, 'cgroup.subtree_control', enable.map((controller) => `+${controller}`).join(' '));
  const dir = join(ROOT, `perfgate-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const missing = CONTROLLERS.filter((controller) => !read(dir, 'cgroup.controllers').split(' ').includes(controller));
  if (missing.length) {
    rmdirSync(dir);
    throw new Error(`the root cgroup does not delegate ${missing.join(', ')}`);
  }
  write(dir, 'cgroup.subtree_control', CONTROLLERS.map((controller) => `+${controller}`).join(' '));
  v2Parent = dir;
  // Registered before its groups, so it runs first: their own cleanups find them gone.
  registerCleanup(() => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) removeDir(join(dir, entry.name));
    removeDir(dir);
  });
  return dir;
}

function makeV2(name, cpus) {
  const dir = join(v2ParentDir(), name);
  mkdirSync(dir);
  if (cpus?.length) write(dir, 'cpuset.cpus', cpus.join(','));
  write(dir, 'memory.max', String(SIDE_LIMITS.memoryBytes));
  // Without swap, a side at its limit is stopped rather than slowed down to the disk's speed.
  if (existsSync(join(dir, 'memory.swap.max'))) write(dir, 'memory.swap.max', '0');
  write(dir, 'pids.max', String(SIDE_LIMITS.processes));
  return {
    dirs: [dir],
    memoryEvents: () => counter(read(dir, 'memory.events'), 'oom_kill'),
    pidsEvents: () => counter(read(dir, 'pids.events'), 'max'),
    members: dir,
  };
}

function makeV1(name, cpus) {
  const dirs = Object.fromEntries(
    CONTROLLERS.map((controller) => [controller, join(ROOT, controller, ownV1Path(controller), name)]),
  );
  const made = [];
  try {
    for (const dir of Object.values(dirs)) {
      mkdirSync(dir);
      made.push(dir);
    }
    // A v1 cpuset has no cores and no memory nodes until it is given them.
    const parent = dirname(dirs.cpuset);
    write(dirs.cpuset, 'cpuset.cpus', cpus?.length ? cpus.join(',') : read(parent, 'cpuset.cpus'));
    write(dirs.cpuset, 'cpuset.mems', read(parent, 'cpuset.mems'));
    write(dirs.memory, 'memory.limit_in_bytes', String(SIDE_LIMITS.memoryBytes));
    if (existsSync(join(dirs.memory, 'memory.memsw.limit_in_bytes')))
      write(dirs.memory, 'memory.memsw.limit_in_bytes', String(SIDE_LIMITS.memoryBytes));
    write(dirs.pids, 'pids.max', String(SIDE_LIMITS.processes));
  } catch (error) {
    for (const dir of made) rmdirSync(dir);
    throw error;
  }
  return {
    dirs: Object.values(dirs),
    memoryEvents: () => counter(read(dirs.memory, 'memory.oom_control'), 'oom_kill'),
    pidsEvents: () => counter(read(dirs.pids, 'pids.events'), 'max'),
    members: dirs.pids,
  };
}

const members = (dir) => {
  try {
    return read(dir, 'cgroup.procs').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

function killMembers(dir) {
  for (const pid of members(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

// A group is removed once empty: what is still in it (a fork bomb, or on SIGINT) is killed first.
function removeDir(dir, membersDir = dir) {
  for (let tries = 0; existsSync(dir); tries++) {
    try {
      rmdirSync(dir);
    } catch (error) {
      if (tries >= REMOVE_TRIES) throw error;
      killMembers(membersDir);
      pause(REMOVE_WAIT_MS);
    }
  }
}

let serial = 0;
let probed;

/** Why servers cannot be put in cgroups here (one line), or null when they can. */
export function cgroupsUnavailable() {
  probed ??= probe();
  return probed;
}

function probe() {
  if (process.getuid?.() !== 0) return 'not run as root (cgroups are made by root)';
  const kind = version();
  if (!kind) return `no cgroup v2, nor v1 hierarchies of ${CONTROLLERS.join(', ')}, at ${ROOT}`;
  try {
    const group = kind === 'v2' ? makeV2('perfgate-probe', null) : makeV1(`perfgate-probe-${process.pid}`, null);
    for (const dir of group.dirs) rmdirSync(dir);
    return null;
  } catch (error) {
    return `cgroup ${kind} cannot be written here (${error.message})`;
  }
}

/** The limits a sandboxed side's servers run under, as one line for its sandbox record. */
export function limitsNote() {
  const reason = cgroupsUnavailable();
  if (reason) return `no cgroup limits: ${reason}`;
  return `cgroup ${version()}: its server cores, memory ${byteSize(SIDE_LIMITS.memoryBytes)}, ${SIDE_LIMITS.processes} processes and threads`;
}

/**
 * A cgroup for one server of side `side` on `cpus` (none: the harness's), or null where cgroups
 * cannot be made (cgroupsUnavailable says why).
 * @returns {{procs: string[], reached: () => string|null, kill: () => void, remove: () => void} | null}
 *   procs: the files its first process writes its pid to (inCgroup); reached: the limit it hit, named
 */
export function openCgroup(side, cpus) {
  if (cgroupsUnavailable()) return null;
  const name = `perfgate-${process.pid}-${++serial}-${side.replace(/[^\w.-]/g, '_')}`;
  const group = version() === 'v2' ? makeV2(name, cpus) : makeV1(name, cpus);
  const remove = () => {
    for (const dir of group.dirs) removeDir(dir, group.members);
  };
  const unregister = registerCleanup(remove);
  return {
    procs: group.dirs.map((dir) => join(dir, 'cgroup.procs')),
    reached: () => {
      try {
        if (group.memoryEvents() > 0) return LIMIT_REACHED.memory();
        if (group.pidsEvents() > 0) return LIMIT_REACHED.processes();
      } catch {
        // removed meanwhile
      }
      return null;
    },
    kill: () => killMembers(group.members),
    remove: () => {
      unregister();
      remove();
    },
  };
}

/** `argv` run in `cgroup`: its first process joins it, then becomes the command (exec). */
export const inCgroup = (cgroup, argv) => [
  '/bin/sh',
  '-c',
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@"',
  'perfgate-cgroup',
  String(cgroup.procs.length),
  ...cgroup.procs,
  ...argv,
];
