// One sandboxed server (or the describe step) under its side's limits (./limits.js): in a cgroup of its own (./cgroup.js),
// with a file system of a bounded size (./view.js). Both are watched while it runs: a limit
// reached stops the whole server at once (a side at its memory or process limit would otherwise
// go on crippled, and a full file system fails only the writes its code may ignore), and is named
// as the reason it exited.
import { openCgroup, inCgroup } from './cgroup.js';
import { LIMIT_REACHED, withinInstallTime } from './limits.js';
import { viewFull } from './view.js';

const WATCH_MS = 100;

/**
 * @param {{side: string}} sandbox  the side's (./bubblewrap.js sideSandbox)
 * @param {object} view  the server's file system (./view.js openView)
 * @param {number[]} [cpus]  its cores (none: the harness's)
 */
export function limitServer(sandbox, view, cpus) {
  const cgroup = openCgroup(sandbox.side, cpus);
  let reached = null;
  let timer;
  const check = () => {
    reached ??= cgroup?.reached() ?? (viewFull(view) ? LIMIT_REACHED.view() : null);
    return reached;
  };
  return {
    /** The server's argv, run in its cgroup. */
    argv: (argv) => (cgroup ? inCgroup(cgroup, argv) : argv),
    /** Watches the limits from now on; `kill` ends the server when one is reached. */
    watch(kill) {
      if (!cgroup && !view?.sizeLimited) return;
      timer = setInterval(() => {
        if (!check()) return;
        clearInterval(timer);
        cgroup?.kill();
        kill();
      }, WATCH_MS);
      timer.unref();
    },
    /** The limit the server reached, named, or null. */
    reached: check,
    /** After the server's processes are gone. */
    close() {
      clearInterval(timer);
      cgroup?.remove();
    },
  };
}

/**
 * A side's install: `run(argv, options)` (spawnSync) in a cgroup of its own, its side's memory and
 * process limits, and within its time; a limit it failed at is named in its error.
 */
export function runLimitedInstall(argv, run) {
  const cgroup = openCgroup('install');
  try {
    const result = withinInstallTime((options) => run(cgroup ? inCgroup(cgroup, argv) : argv, options));
    const reached = result.status !== 0 && cgroup?.reached();
    return reached ? { ...result, error: new Error(`the install stopped: ${reached}`) } : result;
  } finally {
    cgroup?.remove();
  }
}
