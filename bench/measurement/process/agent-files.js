// The harness's side of an agent preloaded into a server's Node processes (the runtime agent,
// bench/measurement/runtime-agent/; the CPU profiler's, bench/comparison/profile/): each process
// announces itself with a file named by its pid, is signalled, and answers with another file.
// What an agent writes comes from the side's process: read as a plain file only, size-capped.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { outerPid, processGroup } from '../sandbox/processes.js';

const POLL_MS = 10;

/** The pids that wrote `<pid><suffix>` into dir. */
export const pidsWith = (dir, suffix) =>
  readdirSync(dir)
    .filter((file) => file.endsWith(suffix) && /^\d+$/.test(file.slice(0, -suffix.length)))
    .map((file) => Number(file.slice(0, -suffix.length)));

/** Whether every pid wrote `<pid><suffix>` within timeoutMs. */
export async function filesAppear(dir, pids, suffix, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!pids.every((pid) => existsSync(join(dir, `${pid}${suffix}`)))) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/**
 * Sends `signal` to each pid an agent named, only if it is the server's: a sandboxed server's
 * agents name their pids in its PID namespace, and only processes of that namespace are signalled
 * (a forged file names nothing else); another server's must be in its process group (a pid that
 * ended and was reused by another program is not). Returns the first pid that is not the
 * server's, or null when all were signalled.
 */
export function signalAgents(pids, server, signal = 'SIGUSR2') {
  for (const pid of pids) {
    const target = server.pidNamespace ? outerPid(server.pidNamespace, pid) : pid;
    if (!target || (!server.pidNamespace && processGroup(target) !== server.pid)) return pid;
    process.kill(target, signal);
  }
  return null;
}
