// calibrate --neighbour: the CPU hog starts pinned to the server cores, runs, and is gone after a
// comparison, an error, SIGINT or SIGTERM (it is one process group of bench/measurement/process/children.js).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  describeNeighbour,
  neighbourCommand,
  neighbourUnavailable,
  startNeighbour,
  withNeighbour,
} from '../bench/comparison/calibration/neighbour.js';
import { currentPinning } from '../bench/measurement/pinning.js';
import { groupAlive, PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { groupGone, testLeavesNoNeighbour } from './helpers/neighbour-child.js';
import { ownOrOrphan } from './helpers/test-processes.js';

const PLAN = { method: 'taskset', load: [0], server: [1, 2], cpus: [0, 1, 2] };

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
        pid = spawnSync('pgrep', ['-f', 'stress-ng --cpu'], { encoding: 'utf8' })
          .stdout.split('\n')
          .filter((line) => line && ownOrOrphan(line))
          .at(-1);
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

  testLeavesNoNeighbour('hog', 'neighbour', 'startNeighbour');
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
