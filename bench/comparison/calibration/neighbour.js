// A noisy neighbour for calibration (npm run calibrate --neighbour PCT): a CPU hog of that duty
// cycle on the server cores, where a hosted runner's neighbours or a self-hosted machine's other
// jobs would sit. stress-ng's CPU stressor (Debian package stress-ng) loads each core by P % in
// short busy and sleep slices, one worker per server core, pinned there by taskset. It runs in its
// own process group (bench/measurement/process/children.js), so it is killed with the harness's other
// children on exit, an error, SIGINT or SIGTERM; and it times out by itself.
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../core/errors.js';
import { pinnedCommand } from '../../measurement/pinning.js';
import { spawnGroup, stopGroup } from '../../measurement/process/children.js';
import { startTenant } from './tenant.js';

export const NEIGHBOUR_TOOL = 'stress-ng';

// Why no neighbour can run here, or null.
export function neighbourUnavailable() {
  const probe = spawnSync(NEIGHBOUR_TOOL, ['--version'], { stdio: 'ignore' });
  return probe.status === 0
    ? null
    : `${NEIGHBOUR_TOOL} not found (Debian package stress-ng; node scripts/setup.mjs installs it)`;
}

// The hog's command line: one CPU worker per server core at `percent` load, pinned to them.
export function neighbourCommand(plan, { percent, timeoutSeconds }) {
  const cores = plan.method === 'taskset' ? plan.server : plan.cpus;
  return pinnedCommand(plan, [
    NEIGHBOUR_TOOL,
    '--cpu',
    String(cores.length),
    '--cpu-load',
    String(percent),
    '--timeout',
    `${Math.ceil(timeoutSeconds)}s`,
    '--quiet',
  ]);
}

// What calibration.json and calibration.md record of it.
export const describeNeighbour = (plan, percent) => ({
  percent,
  cores: plan.method === 'taskset' ? plan.server : plan.cpus,
  pinned: plan.method === 'taskset',
  tool: `${NEIGHBOUR_TOOL} --cpu-load ${percent}`,
});

// Starts the hog and checks that it runs; stop() ends it and its workers.
export async function startNeighbour(plan, { percent, timeoutSeconds }) {
  const why = neighbourUnavailable();
  if (why) throw errors.neighbourUnavailable(why);
  const group = spawnGroup(neighbourCommand(plan, { percent, timeoutSeconds }), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  group.child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // A hog that cannot start (bad arguments, no such core) exits at once.
  const early = await Promise.race([group.exited, sleep(300).then(() => null)]);
  if (early)
    throw errors.neighbourFailed(early.error?.message ?? (stderr.trim() || `exit ${early.code ?? early.signal}`));
  return { pid: group.child.pid, stop: () => stopGroup(group) };
}

// Runs `work(neighbours)` with the neighbours asked for: the hog on the server cores at `percent`,
// the tenant on all cores at `tenant` % average load (tenant.js); `work(null)` without either. Each
// is stopped whatever `work` does, and whatever the other's start did.
export async function withNeighbour(plan, { percent, tenant, timeoutSeconds }, work) {
  const started = [];
  try {
    if (percent) started.push(await startNeighbour(plan, { percent, timeoutSeconds }));
    if (tenant) started.push(await startTenant(plan, { percent: tenant, timeoutSeconds }));
    return await work(started.length ? started : null);
  } finally {
    for (const neighbour of started) await neighbour.stop();
  }
}

// What a calibration's heading and text say of its neighbours (records of describeNeighbour and describeTenant).
export function neighbourTitle({ neighbour = null, tenant = null }) {
  const parts = [
    ...(neighbour ? [`${neighbour.percent} % neighbour`] : []),
    ...(tenant ? [`${tenant.percent} % tenant`] : []),
  ];
  return parts.map((part) => `, ${part}`).join('');
}
export function neighbourText({ neighbour = null, tenant = null }, during) {
  const parts = [
    ...(neighbour
      ? [
          `a CPU hog at ${neighbour.percent} % duty cycle (${neighbour.tool}) on core ${neighbour.cores.join(',')}${neighbour.pinned ? ', the server cores' : ', unpinned'}`,
        ]
      : []),
    ...(tenant
      ? [
          `a tenant-like neighbour at ${tenant.percent} % average load on cores ${tenant.cores.join(',')}, all on and off together in cycles of ${tenant.cycleSeconds.join('–')} s`,
        ]
      : []),
  ];
  return parts.length ? `Neighbour: ${parts.join('; ')}, during every ${during}.` : 'Neighbour: none.';
}
