// Allocation per request compares only on one runtime: when the sides run on different runtimes
// (another JIT allocates differently), heap bytes/request does not decide and the verdict says why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runtimesDiffer } from '../bench/comparison/gate.js';
import { compareInterleaved } from '../bench/comparison/rounds.js';
import { defaultBands } from '../bench/results/metrics.js';

// Rounds where the time metrics hold still (a little noise each way) and the head allocates 20 % more.
const measureRound = async (round) => {
  const wobble = round % 2 ? 1.002 : 0.998;
  const sample = (heap) => ({
    requestsPerSecond: 10_000 * wobble,
    p99LatencyMs: 10,
    cpuMicrosPerRequest: 100 / wobble,
    heapBytesPerRequest: heap * wobble,
    errors: 0,
    timeouts: 0,
    clientSaturated: false,
  });
  return { base: sample(10_000), head: sample(12_000) };
};

const compare = (runtimesDiffer) =>
  compareInterleaved({
    measureRound,
    budgetMs: 60_000,
    minRounds: 6,
    maxRounds: 6,
    thresholds: defaultBands(),
    runtimesDiffer,
  });

test('on one runtime, allocation per request calls the verdict', async () => {
  const { verdict, verdicts } = await compare(false);
  assert.deepEqual([verdict.verdict, verdict.calledBy], ['regression', 'heap bytes/request']);
  assert.equal(verdicts['heap bytes/request'].verdict, 'regression');
  assert.ok(!verdict.notes.some((note) => /not comparable/.test(note)));
});

test('on two runtimes, it is judged but does not decide, and the verdict says the figures are not comparable', async () => {
  const { verdict, verdicts } = await compare(true);
  assert.notEqual(verdict.calledBy, 'heap bytes/request');
  assert.doesNotMatch(verdict.calledBy, /heap/);
  assert.equal(verdicts['heap bytes/request'].verdict, 'regression', 'still measured and judged, for the record');
  assert.ok(
    verdict.notes.includes(
      'heap bytes/request not comparable: the sides run on different runtimes, whose JIT and built-ins allocate differently, so it does not decide',
    ),
    verdict.notes.join('; '),
  );
});

test("the sides' runtimes differ by their spec, the system's Node.js being one", () => {
  const variant = (runtime) => ({ runtime, launch: { command: ['node'] } });
  assert.equal(runtimesDiffer(variant(undefined), variant('system')), false);
  assert.equal(runtimesDiffer(variant('node@22'), variant('node@22')), false);
  assert.equal(runtimesDiffer(variant(undefined), variant('node@24')), true);
  assert.equal(runtimesDiffer(variant('node@22'), variant('bun@1.3')), true);
});
