// calibrate --neighbour: the CPU hog starts pinned to the server cores, runs, and is gone after a
// comparison, an error, SIGINT or SIGTERM (it is one process group of bench/measurement/process/children.js).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  describeNeighbour,
  neighbourCommand,
  neighbourUnavailable,
  startNeighbour,
  withNeighbour,
} from '../bench/comparison/calibration/neighbour.js';
import { currentPinning } from '../bench/measurement/pinning.js';
import { groupAlive, PROJECT_ROOT, tempDir } from './helpers/harness.js';

const PLAN = { method: 'taskset', load: [0], server: [1, 2], cpus: [0, 1, 2] };

async function groupGone(pid, withinMs = 3000) {
  for (let waited = 0; waited < withinMs && groupAlive(pid); waited += 50) await sleep(50);
  return !groupAlive(pid);
}

test('the hog is stress-ng at the duty cycle, one worker per server core, pinned to them, with its own timeout', () => {
  assert.deepEqual(neighbourCommand(PLAN, { percent: 50, timeoutSeconds: 600.5 }), [
    'taskset',
    '-c',
    '1,2',
    'stress-ng',
    '--cpu',
    '2',
    '--cpu-load',
    '50',
    '--timeout',
    '601s',
    '--quiet',
  ]);
  const unpinned = { method: 'none', reason: 'one core', cpus: [0] };
  assert.deepEqual(neighbourCommand(unpinned, { percent: 30, timeoutSeconds: 10 }).slice(0, 3), [
    'stress-ng',
    '--cpu',
    '1',
  ]);
  assert.deepEqual(describeNeighbour(PLAN, 50), {
    percent: 50,
    cores: [1, 2],
    pinned: true,
    tool: 'stress-ng --cpu-load 50',
  });
});

describe('a real hog', { skip: neighbourUnavailable() ?? false }, () => {
  const plan = currentPinning({});

  test('starts, runs, and is gone with its workers when stopped', async () => {
    const neighbour = await startNeighbour(plan, { percent: 20, timeoutSeconds: 60 });
    assert.ok(groupAlive(neighbour.pid));
    await neighbour.stop();
    assert.ok(await groupGone(neighbour.pid));
  });

  test('is stopped when the work it accompanies throws', async () => {
    let pid;
    await assert.rejects(
      withNeighbour(plan, { percent: 20, timeoutSeconds: 60 }, async () => {
        pid = spawnSync('pgrep', ['-f', '--newest', 'stress-ng --cpu'], { encoding: 'utf8' }).stdout.trim();
        throw new Error('the comparison failed');
      }),
      /the comparison failed/,
    );
    assert.ok(pid, 'a hog ran during the work');
    assert.ok((await groupGone(Number(pid))) || !groupAlive(Number(pid)));
  });

  test('runs no hog without a percentage', async () => {
    assert.equal(await withNeighbour(plan, { percent: undefined, timeoutSeconds: 60 }, async (hog) => hog), null);
  });

  // A process that starts a hog, says its pid, then waits, fails or is interrupted.
  const child = (then) =>
    spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { startNeighbour } from ${JSON.stringify(join(PROJECT_ROOT, 'bench/comparison/calibration/neighbour.js'))};
         import { currentPinning } from ${JSON.stringify(join(PROJECT_ROOT, 'bench/measurement/pinning.js'))};
         const neighbour = await startNeighbour(currentPinning({}), { percent: 20, timeoutSeconds: 60 });
         console.log(neighbour.pid);
         ${then}`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
  const pidOf = async (process) => Number((await once(process.stdout, 'data'))[0].toString().trim());

  for (const signal of ['SIGINT', 'SIGTERM']) {
    test(`leaves no hog behind on ${signal}`, async () => {
      const process_ = child('setInterval(() => {}, 1000);');
      const pid = await pidOf(process_);
      assert.ok(groupAlive(pid));
      process_.kill(signal);
      const [code] = await once(process_, 'exit');
      assert.equal(code, signal === 'SIGINT' ? 130 : 143);
      assert.ok(await groupGone(pid), `the hog ${pid} outlived ${signal}`);
    });
  }

  test('leaves no hog behind when the process dies of an error', async () => {
    const process_ = child("setTimeout(() => { throw new Error('boom'); }, 200);");
    const pid = await pidOf(process_);
    const [code] = await once(process_, 'exit');
    assert.equal(code, 1);
    assert.ok(await groupGone(pid), `the hog ${pid} outlived the error`);
  });
});

test('--neighbour without stress-ng is a clear error before any server starts', () => {
  // A PATH that holds node and nothing else.
  const bin = tempDir('perfgate-no-hog-');
  symlinkSync(process.execPath, join(bin, 'node'));
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/calibrate.mjs'), '--neighbour', '50'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, PATH: bin },
    timeout: 60_000,
  });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--neighbour needs a CPU hog, but stress-ng not found \(Debian package stress-ng/);
});
