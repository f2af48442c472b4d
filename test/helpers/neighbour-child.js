// A calibration's neighbour (the hog, the tenant) must be gone however the process that started it
import assert from 'node:assert/strict';
// ends: a process that starts one and says its pid, and the checks that its process group is gone.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupAlive, PROJECT_ROOT } from './harness.js';

// Whether a process group ends within withinMs (a group outlives its leader's exit by a moment).
export async function groupGone(pid, withinMs = 3000) {
  for (let waited = 0; waited < withinMs && groupAlive(pid); waited += 50) await sleep(50);
  return !groupAlive(pid);
}

// A process that starts a neighbour with `start` of bench/comparison/calibration/<module>.js at 20 %,
// says its pid, then runs `then` (waits, fails, ...).
export function neighbourChild(module, start, then) {
  return spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ${start} } from ${JSON.stringify(join(PROJECT_ROOT, `bench/comparison/calibration/${module}.js`))};
       import { currentPinning } from ${JSON.stringify(join(PROJECT_ROOT, 'bench/measurement/pinning.js'))};
       const neighbour = await ${start}(currentPinning({}), { percent: 20, timeoutSeconds: 60 });
       console.log(neighbour.pid);
       ${then}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

export const neighbourPid = async (child) => Number((await once(child.stdout, 'data'))[0].toString().trim());

// The tests every neighbour passes: none is left behind after SIGINT, SIGTERM or an uncaught error
// of the process that started it, which exits with the code a shell expects.
export function testLeavesNoNeighbour(name, module, start) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    test(`leaves no ${name} behind on ${signal}`, async () => {
      const child = neighbourChild(module, start, 'setInterval(() => {}, 1000);');
      const pid = await neighbourPid(child);
      assert.ok(groupAlive(pid));
      child.kill(signal);
      const [code] = await once(child, 'exit');
      assert.equal(code, signal === 'SIGINT' ? 130 : 143);
      assert.ok(await groupGone(pid), `the ${name} ${pid} outlived ${signal}`);
    });
  }

  test(`leaves no ${name} behind when the process dies of an error`, async () => {
    const child = neighbourChild(module, start, "setTimeout(() => { throw new Error('boom'); }, 200);");
    const pid = await neighbourPid(child);
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.ok(await groupGone(pid), `the ${name} ${pid} outlived the error`);
  });
}
