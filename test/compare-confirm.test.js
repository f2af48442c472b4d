// Suite-level error control (bench/stats/METHOD.md, section 5b): a benchmark called slower is measured
// once more and the second run decides; on constructed runs, then on simulated A/A suites of 12 benchmarks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONFIRMING_RUN, changeDirection, measureConfirmed, secondsToVerdict } from '../bench/comparison/confirm.js';
import { isSlower } from '../bench/stats/index.js';
import { simulatedBenchmark } from './helpers/simulated-rounds.js';

// Scripted runs: each call answers the next verdict of the list.
function scripted(verdicts) {
  const calls = [];
  const judged = [];
  const measure = async (attempt, judging) => {
    calls.push(attempt);
    judged.push(judging);
    const verdict = verdicts[calls.length - 1];
    return {
      verdict: { verdict },
      verdicts: {},
      samples: { base: [], head: [] },
      rounds: 6,
      elapsedMs: 30_000,
      stoppedBy: 'resolved',
    };
  };
  return { measure, calls, judged };
}

test('a run that finds no certain change stands alone', async () => {
  for (const verdict of ['no change', 'inconclusive']) {
    const { measure, calls } = scripted([verdict]);
    const measured = await measureConfirmed(measure);
    assert.deepEqual([measured.verdict.verdict, measured.confirmation, calls], [verdict, undefined, [1]]);
  }
});

test('a slowdown or an improvement is measured again and the second run decides, confirmed or not', async () => {
  const cases = [
    [['small regression', 'no change'], 'no change', false],
    [['small regression', 'small regression'], 'small regression', true],
    [['regression', 'small regression'], 'small regression', true],
    [['regression', 'regression'], 'regression', true],
    [['small regression', 'inconclusive'], 'inconclusive', false],
    [['small improvement', 'no change'], 'no change', false],
    [['improvement', 'small improvement'], 'small improvement', true],
    // Opposite calls: neither stands, so a false improvement cannot turn into an unconfirmed slowdown.
    [['small regression', 'improvement'], 'inconclusive', false],
    [['small improvement', 'small regression'], 'inconclusive', false],
  ];
  for (const [verdicts, standing, repeated] of cases) {
    const { measure, calls, judged } = scripted(verdicts);
    const confirming = [];
    const measured = await measureConfirmed(measure, { onConfirm: (first) => confirming.push(first.verdict.verdict) });
    assert.deepEqual(calls, [1, 2]);
    // The second run dismisses the change only within the minimum effect.
    assert.deepEqual(judged, [{}, CONFIRMING_RUN]);
    assert.equal(CONFIRMING_RUN.noChangeWithin, 'minimumEffect');
    assert.deepEqual(confirming, [verdicts[0]]);
    assert.equal(measured.verdict.verdict, standing, verdicts.join(' then '));
    assert.equal(measured.confirmation.repeated, repeated);
    assert.equal(measured.confirmation.first.verdict.verdict, verdicts[0]);
    const opposite = !repeated && changeDirection(verdicts[1]) !== null ? verdicts[1] : undefined;
    assert.equal(measured.confirmation.opposite, opposite);
    assert.equal(secondsToVerdict(measured), 60);
  }
});

test('--no-confirm: the first run decides', async () => {
  const { measure, calls } = scripted(['small regression', 'no change']);
  const measured = await measureConfirmed(measure, { confirm: false });
  assert.deepEqual([measured.verdict.verdict, calls], ['small regression', [1]]);
});

// Seeded A/A suites of 12 benchmarks under modelled noise (2.7 % per round, a tenth of the rounds
// three times that): how many suites call any slowdown, with the confirmation and without.
test('on simulated A/A suites of 12 benchmarks, the confirmation keeps almost every suite free of a slowdown', async (t) => {
  const suites = 200;
  const slowerSuites = { confirmed: 0, unconfirmed: 0 };
  for (let suite = 0; suite < suites; suite += 1) {
    const calls = { confirmed: false, unconfirmed: false };
    for (let benchmark = 0; benchmark < 12; benchmark += 1) {
      const measured = await simulatedBenchmark({ change: 0, seed: suite * 100 + benchmark });
      const first = measured.confirmation?.first ?? measured;
      calls.unconfirmed ||= isSlower(first.verdict.verdict);
      calls.confirmed ||= isSlower(measured.verdict.verdict);
    }
    for (const kind of Object.keys(calls)) slowerSuites[kind] += calls[kind] ? 1 : 0;
  }
  t.diagnostic(
    `A/A suites calling a slowdown: ${slowerSuites.confirmed} of ${suites} confirmed, ${slowerSuites.unconfirmed} by a first run`,
  );
  assert.ok(slowerSuites.confirmed / suites <= 0.1, `${slowerSuites.confirmed} of ${suites}`);
  assert.ok(slowerSuites.unconfirmed / suites >= 0.2, `${slowerSuites.unconfirmed} of ${suites}`);
});

test('a true 5 % slowdown is still called a regression after its confirmation', async () => {
  let regressions = 0;
  for (let seed = 1; seed <= 20; seed += 1) {
    const measured = await simulatedBenchmark({ change: 0.05, seed });
    if (measured.verdict.verdict === 'regression' && measured.confirmation?.repeated) regressions += 1;
  }
  assert.ok(regressions >= 18, `${regressions} of 20`);
});
