// A tenant-like neighbour for calibration (npm run calibrate --tenant PCT): what another virtual
// machine on a hosted runner's host looks like from inside, beside --neighbour's steady hog on the
// server cores. One busy thread per core of the machine (server and load cores alike), all
// switched on and off together at random intervals (each on/off cycle 0.4 to 4 s, log-uniform, so
// phases from tenths of a second to seconds), on for PCT % of every cycle: PCT % average load.
// It is one Node process (tenant-process.js) in a process group of its own
// (bench/measurement/process/children.js), killed with the harness's other children on exit, an
// error, SIGINT or SIGTERM; it ends by itself after its timeout, and when its parent is gone.
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../core/errors.js';
import { pinnedCommand } from '../../measurement/pinning.js';
import { spawnGroup, stopGroup } from '../../measurement/process/children.js';

const TENANT_PROCESS = fileURLToPath(new URL('./tenant-process.js', import.meta.url));
// How long a tenant may take to start its threads (a Node process on a busy machine).
const READY_MS = 15_000;
// The shortest and longest on/off cycle, in seconds.
export const TENANT_CYCLE_SECONDS = Object.freeze([0.4, 4]);

// The on and off phases (milliseconds) of `percent` average load, one cycle after another, from `random` ([0, 1)).
export function* tenantPhases(percent, random) {
  const [shortest, longest] = TENANT_CYCLE_SECONDS;
  for (;;) {
    const cycleMs = 1000 * shortest * (longest / shortest) ** random();
    yield { onMs: (cycleMs * percent) / 100, offMs: (cycleMs * (100 - percent)) / 100 };
  }
}

// Its command line: on every core of the plan (the harness itself is pinned to the load cores).
export function tenantCommand(plan, { percent, timeoutSeconds, seed = 1 }) {
  return pinnedCommand(
    plan,
    [
      process.execPath,
      TENANT_PROCESS,
      String(percent),
      String(plan.cpus.length),
      String(Math.ceil(timeoutSeconds)),
      String(seed),
    ],
    plan.cpus,
  );
}

// What calibration.json and calibration.md record of it.
export const describeTenant = (plan, percent) => ({
  percent,
  cores: plan.cpus,
  cycleSeconds: [...TENANT_CYCLE_SECONDS],
  tool: `perfgate tenant ${percent}`,
});

// Starts the tenant and checks that it runs; stop() ends it and its threads.
export async function startTenant(plan, { percent, timeoutSeconds, seed }) {
  // stdin: a pipe that closes when the harness ends, however it ends (tenant-process.js exits then).
  const group = spawnGroup(tenantCommand(plan, { percent, timeoutSeconds, seed }), {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  group.child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // It says "ready" once its threads run; one that cannot start (bad arguments, no such core) exits instead.
  const notReady = { error: { message: `not ready after ${READY_MS / 1000} s` } };
  const waiting = new AbortController();
  const early = await Promise.race([
    group.exited,
    once(group.child.stdout, 'data').then(() => null),
    sleep(READY_MS, notReady, { signal: waiting.signal }),
  ]);
  waiting.abort();
  if (early) {
    await stopGroup(group);
    throw errors.tenantFailed(early.error?.message ?? (stderr.trim() || `exit ${early.code ?? early.signal}`));
  }
  return { pid: group.child.pid, stop: () => stopGroup(group) };
}
