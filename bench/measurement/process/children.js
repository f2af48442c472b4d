// Every child perfgate starts runs in its own process group, registered here, so that a
// whole tree (a server with its workers, nginx with its upstreams) is killed as one, and
// nothing outlives the harness: not on a normal exit, an error, SIGINT or SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const liveGroups = new Set();

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function killAllChildren(signal = 'SIGKILL') {
  for (const pid of liveGroups) signalGroup(pid, signal);
  liveGroups.clear();
}

// Other things that must not outlive the harness (a comparison's git worktrees): synchronous
// functions run after the children are killed. Returns a function that unregisters it.
const cleanups = new Set();
export function registerCleanup(cleanup) {
  installCleanup();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function cleanUpEverything() {
  killAllChildren();
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${error.message}`);
    }
  }
  cleanups.clear();
}

let interruptHandler = (signal) => {
  process.exit(signal === 'SIGINT' ? 130 : 143);
};

// Lets the runner finish its bookkeeping (results already written stay valid) before exiting.
export function onInterrupt(handler) {
  interruptHandler = handler;
  // From now on a signal reaches it, also before the first server has started.
  installCleanup();
}

let installed = false;
function installCleanup() {
  if (installed) return;
  installed = true;
  process.on('exit', cleanUpEverything);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killAllChildren();
      interruptHandler(signal);
    });
  }
}

// Spawns `command` in a new process group and tracks it until it exits.
export function spawnGroup(command, { cwd, env, stdio = 'ignore' } = {}) {
  installCleanup();
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio, detached: true });
  // A command that cannot start at all (ENOENT) emits 'error' instead of 'exit'.
  const exited = once(child, 'exit').then(
    ([code, signal]) => ({ code, signal }),
    (error) => ({ code: null, signal: null, error }),
  );
  if (child.pid) {
    liveGroups.add(child.pid);
    exited.then(() => {
      // The leader is gone; its group may still hold workers, so end them too.
      signalGroup(child.pid, 'SIGKILL');
      liveGroups.delete(child.pid);
    });
  }
  return { child, exited };
}

// SIGTERM to the group, then SIGKILL after a grace period.
export async function stopGroup({ child, exited }, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
  const result = await exited;
  clearTimeout(timer);
  return result;
}
