// The knee search on a synthetic latency curve (p99 = 2 ms / (1 - rate / 1000): every SLO of
// p99 < 20 ms holds up to 900 req/s): found within its interval, bounded by steps, time and the
// lowest rate, a client that cannot hold the schedule marking the upper end; and bad input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findKnees, kneeLines, OUTCOMES, outcomeOf, searchKnee } from '../bench/measurement/knee.js';
import { judgeObjectives, objectivesFor } from '../bench/results/slo.js';

const config = { slo: { 'p99 latency': '< 20 ms', 'error %': '< 1' } };
const spec = { id: 'express json c=10', variant: 'express', scenario: 'json' };
const p99At = (rate) => (rate < 1000 ? 2 / (1 - rate / 1000) : 10_000);
// One load at `rate` on the curve, judged as bench judges it.
const onCurve = async (rate) =>
  outcomeOf(judgeObjectives(objectivesFor(config, spec), (name) => (name === 'p99 latency' ? p99At(rate) : 0)));

test('the knee of a latency curve lies in the interval it reports, narrower than the precision', async () => {
  const found = await searchKnee({ probe: onCurve, start: 100 });
  const [held, broke] = found.interval;
  assert.equal(found.knee, held);
  assert.ok(held < 900 && broke >= 900, `${held} … ${broke}`);
  assert.ok(broke / held - 1 <= 0.1);
  assert.equal(found.stoppedBy, 'precision');
  assert.ok(found.steps.length <= 8);
  assert.deepEqual(
    found.steps.slice(0, 5).map((step) => step.rate),
    [100, 200, 400, 800, 1600],
    'doubling until an SLO breaks',
  );
  const fromAbove = await searchKnee({ probe: onCurve, start: 5000 });
  assert.ok(fromAbove.knee < 900 && fromAbove.interval[1] >= 900, 'halving until every SLO holds, then narrowing');
});

test('bounded: by steps, by time, and at the lowest rate', async () => {
  const fewSteps = await searchKnee({ probe: onCurve, start: 100, steps: 3 });
  assert.deepEqual(fewSteps.interval, [400, null]);
  assert.equal(fewSteps.stoppedBy, 'steps');
  let now = 0;
  const clock = () => now;
  const slow = async (rate) => {
    now += 100;
    return onCurve(rate);
  };
  const timed = await searchKnee({ probe: slow, start: 100, seconds: 250, clock });
  assert.equal(timed.steps.length, 3);
  assert.equal(timed.stoppedBy, 'time');
  const never = await searchKnee({ probe: async () => OUTCOMES.broken, start: 4 });
  assert.equal(never.knee, null);
  assert.deepEqual(never.interval, [null, 1]);
  assert.equal(never.stoppedBy, 'floor');
});

test("a client that cannot hold the schedule marks the interval's upper end, said as the client's", async () => {
  const probe = async (rate) => (rate > 700 ? OUTCOMES.client : onCurve(rate));
  const found = await searchKnee({ probe, start: 100 });
  assert.ok(found.knee <= 700);
  assert.equal(found.clientBound, true);
  assert.match(
    kneeLines([{ benchmark: 'express json', ...found }])[0],
    /^express json: knee [\d,]+ req\/s; the client could not hold [\d,]+ req\/s \(\d+ steps, stopped by precision\)$/,
  );
});

test('outcomes: a broken objective breaks, an unjudged measured one is the client, an unmeasured one is ignored', () => {
  assert.equal(outcomeOf([{ met: true }, { met: false }]), OUTCOMES.broken);
  assert.equal(outcomeOf([{ met: true }, { met: null, value: 90 }]), OUTCOMES.client);
  assert.equal(outcomeOf([{ met: true }, { met: null, value: null }]), OUTCOMES.met);
});

test('the report says the knee and why the search stopped, or that no rate held', () => {
  const lines = kneeLines([
    { benchmark: 'a', interval: [1800, 2000], steps: [1, 2, 3], stoppedBy: 'precision', clientBound: false },
    { benchmark: 'b', interval: [null, 1], steps: [1, 2], stoppedBy: 'floor', clientBound: false },
    { benchmark: 'c', interval: [6400, null], steps: [1], stoppedBy: 'steps', clientBound: false },
    { benchmark: 'd', failed: 'the server exited' },
    { benchmark: 'e', skipped: 'go is not installed' },
  ]);
  assert.deepEqual(lines, [
    'a: knee 1,800 req/s; an SLO broke at 2,000 req/s (3 steps, stopped by precision)',
    'b: no rate tried held every SLO; an SLO broke at 1 req/s (2 steps, stopped by floor)',
    'c: knee 6,400 req/s; no rate tried broke an SLO (1 steps, stopped by steps)',
    'd: no knee, a load failed: the server exited',
    'e: skipped: go is not installed',
  ]);
});

test('bad input: a closed-loop engine, or no SLO, is refused with its fix before anything starts', async () => {
  const suite = { name: 's', variants: ['express'], scenarios: ['json'], connections: [10], options: {}, ...config };
  await assert.rejects(findKnees({ config: { ...suite, engine: 'autocannon' }, variants: [], start: 100 }), {
    code: 'PG_KNEE_NEEDS_OPEN_ENGINE',
    message: /"autocannon" is a closed loop; add --engine vegeta/,
  });
  await assert.rejects(
    findKnees({ config: { ...suite, engine: 'autocannon', slo: undefined }, variants: [], start: 100 }),
    {
      code: 'PG_KNEE_NEEDS_SLO',
      message: /give the config an "slo" \(e\.g\. \{"p99 latency": "< 50 ms"\}\) or a "benchmarkSlo"/,
    },
  );
});
