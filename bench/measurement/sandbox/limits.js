// What a side's sandboxed processes may use, so that one side cannot starve the other or the
// harness: each server in a cgroup of its own (./cgroup.js: its cores, its memory, its number of
// processes), its file system a size-limited one (./view.js), its install bounded in time
// (./install.js). A side that reaches a limit is stopped, and its benchmark fails naming it.
import { byteSize } from '../../core/format.js';

export const SIDE_LIMITS = {
  // Memory of all of a server's processes (its workers too), page cache and its view's files included.
  memoryBytes: 2 * 1024 ** 3,
  // Processes and threads (a Node process has about ten, a JVM a few dozen, Tomcat's pool 200).
  processes: 2048,
  // A server's own file system: the copy of its tree, what it writes there and in its scratch directory.
  viewBytes: 1024 ** 3,
  // A side's install (npm ci and its lifecycle scripts).
  installSeconds: 900,
};

// How each limit reached is named in a failure.
export const LIMIT_REACHED = {
  memory: () => `memory limit ${byteSize(SIDE_LIMITS.memoryBytes)} reached`,
  processes: () => `process limit reached (${SIDE_LIMITS.processes} processes and threads)`,
  view: () => `file system limit ${byteSize(SIDE_LIMITS.viewBytes)} reached (its tree's copy and scratch directory)`,
};

/** A side's install (spawnSync) within its time limit; a timeout is named, not ETIMEDOUT. */
export function withinInstallTime(run) {
  const result = run({ timeout: SIDE_LIMITS.installSeconds * 1000, killSignal: 'SIGKILL' });
  if (result.error?.code !== 'ETIMEDOUT') return result;
  const error = new Error(`the install did not finish within ${SIDE_LIMITS.installSeconds} s, its time limit`);
  return { ...result, error };
}
