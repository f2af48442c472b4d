// calibrate --tenant: the tenant-like neighbour's schedule (random cycles at the asked average load),
// its command on every core, and a real one that starts, loads the machine, and is gone after a
// comparison, an error, SIGINT, SIGTERM, or its parent's death (one process group of
// bench/measurement/process/children.js, and a process that watches its parent).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { neighbourText, withNeighbour } from '../bench/comparison/calibration/neighbour.js';
import {
  describeTenant,
  startTenant,
  TENANT_CYCLE_SECONDS,
  tenantCommand,
  tenantPhases,
} from '../bench/comparison/calibration/tenant.js';
import { currentPinning } from '../bench/measurement/pinning.js';
import { seededRandom } from '../bench/stats/index.js';
import { groupAlive, PROJECT_ROOT } from './helpers/harness.js';
import { groupGone, neighbourChild, neighbourPid, testLeavesNoNeighbour } from './helpers/neighbour-child.js';

const PLAN = { method: 'taskset', load: [0], server: [1, 2], cpus: [0, 1, 2] };

// CPU seconds a process and its threads have used (utime + stime of /proc/PID/stat).
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

test('the schedule: cycles of 0.4–4 s, on for the asked share of each, so the average load is that share', () => {
  const phases = tenantPhases(25, seededRandom(7));
  const cycles = Array.from({ length: 2000 }, () => phases.next().value);
  const [shortest, longest] = TENANT_CYCLE_SECONDS.map((seconds) => seconds * 1000);
  for (const { onMs, offMs } of cycles) {
    assert.ok(onMs + offMs >= shortest - 1e-9 && onMs + offMs <= longest + 1e-9, `${onMs + offMs} ms`);
    assert.ok(Math.abs(onMs / (onMs + offMs) - 0.25) < 1e-9);
  }
  const on = cycles.reduce((sum, cycle) => sum + cycle.onMs, 0);
  const all = cycles.reduce((sum, cycle) => sum + cycle.onMs + cycle.offMs, 0);
  assert.ok(Math.abs(on / all - 0.25) < 1e-9);
  // Random lengths: short and long cycles both occur.
  assert.ok(
    cycles.some((cycle) => cycle.onMs + cycle.offMs < 800) && cycles.some((cycle) => cycle.onMs + cycle.offMs > 3000),
  );
});

test('the tenant runs on every core, one thread per core, with its own timeout; the report says so', () => {
  const command = tenantCommand(PLAN, { percent: 25, timeoutSeconds: 600.5 });
  assert.deepEqual(command.slice(0, 4), ['taskset', '-c', '0,1,2', process.execPath]);
  assert.match(command[4], /bench\/comparison\/calibration\/tenant-process\.js$/);
  assert.deepEqual(command.slice(5), ['25', '3', '601', '1']);
  assert.equal(
    tenantCommand({ method: 'none', reason: 'one core', cpus: [0] }, { percent: 50, timeoutSeconds: 10 })[0],
    process.execPath,
  );
  assert.equal(
    neighbourText({ tenant: describeTenant(PLAN, 25) }, 'comparison'),
    'Neighbour: a tenant-like neighbour at 25 % average load on cores 0,1,2, all on and off together in cycles of 0.4–4 s, during every comparison.',
  );
});

describe('a real tenant', () => {
  const plan = currentPinning({});

  test('starts, loads the machine, and is gone with its threads when stopped', async () => {
    const tenant = await startTenant(plan, { percent: 50, timeoutSeconds: 60 });
    assert.ok(groupAlive(tenant.pid));
    const before = cpuSeconds(tenant.pid);
    await sleep(2500);
    assert.ok(cpuSeconds(tenant.pid) > before, 'it used CPU');
    await tenant.stop();
    assert.ok(await groupGone(tenant.pid));
  });

  test('a percentage it cannot run is a clear error', async () => {
    await assert.rejects(startTenant(plan, { percent: 150, timeoutSeconds: 60 }), (error) => {
      assert.equal(error.code, 'PG_TENANT_FAILED');
      assert.match(error.message, /the --tenant neighbour did not start: usage: tenant-process\.js PERCENT\(0-100\]/);
      return true;
    });
  });

  test('is stopped, beside the hog or alone, when the work it accompanies throws', async () => {
    let pids;
    await assert.rejects(
      withNeighbour(plan, { tenant: 30, timeoutSeconds: 60 }, async (started) => {
        pids = started.map((each) => each.pid);
        throw new Error('the comparison failed');
      }),
      /the comparison failed/,
    );
    assert.equal(pids.length, 1);
    assert.ok(await groupGone(pids[0]));
  });

  testLeavesNoNeighbour('tenant', 'tenant', 'startTenant');

  test('ends by itself when its parent is killed without a chance to clean up', async () => {
    const child = neighbourChild('tenant', 'startTenant', 'setInterval(() => {}, 1000);');
    const pid = await neighbourPid(child);
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.ok(await groupGone(pid, 8000), `the tenant ${pid} outlived its parent`);
  });
});

test('--tenant over 100 % is refused before anything starts', () => {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/calibrate.mjs'), '--tenant', '120'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--tenant: 120 is more than 100 %/);
});
