import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from '../bench/stats/defaults.js';
import { seededRandom } from '../bench/stats/prng.js';
import { classifyInterval, compareSamples, failsGate, towardsBetter } from '../bench/stats/verdict.js';

// Synthetic rounds: a fixed zero-mean noise pattern (relative), scaled, around 1000 req/s or 20 ms.
const NOISE = [0.01, -0.012, 0.005, -0.003, 0.008, -0.009, 0.002, -0.001];
const rounds = (level, noiseScale = 1, pattern = NOISE) => pattern.map((noise) => level * (1 + noiseScale * noise));
const base = rounds(1000);
const headAt = (change, noiseScale = 1) => rounds(1000 * (1 + change), noiseScale, NOISE.toReversed());

test('classifyInterval: horizons at ±threshold, strict on both edges', () => {
  const band = { direction: 'bigger', threshold: 0.05 };
  assert.equal(classifyInterval([0.06, 0.09], band), 'improvement');
  assert.equal(classifyInterval([-0.09, -0.06], band), 'regression');
  assert.equal(classifyInterval([-0.02, 0.03], band), 'no change');
  assert.equal(classifyInterval([-0.08, -0.02], band), 'inconclusive');
  assert.equal(classifyInterval([-0.08, 0.08], band), 'inconclusive');
  assert.equal(classifyInterval([0.05, 0.09], band), 'inconclusive');
  assert.equal(classifyInterval([-0.05, 0.01], band), 'inconclusive');
});

test('classifyInterval: smaller-is-better reads a rise as a regression', () => {
  const band = { direction: 'smaller', threshold: 0.05 };
  assert.equal(classifyInterval([0.06, 0.09], band), 'regression');
  assert.equal(classifyInterval([-0.09, -0.06], band), 'improvement');
  assert.deepEqual(towardsBetter([0.06, 0.09], 'smaller'), [-0.09, -0.06]);
});

test('clear regression: throughput down 15 %', () => {
  const result = compareSamples(base, headAt(-0.15));
  assert.equal(result.verdict, 'regression');
  assert.ok(Math.abs(result.change + 0.15) < 1e-9);
  assert.ok(result.ci[0] < -0.15 && result.ci[1] > -0.15 && result.ci[1] < -0.05);
  assert.ok(result.pValue < 1e-6);
  assert.deepEqual(result.n, { base: 8, head: 8 });
  assert.ok(Math.abs(result.means.base - 1000) < 1e-9);
  assert.ok(result.cv.base > 0.005 && result.cv.base < 0.01);
});

test('clear improvement: throughput up 15 %', () => {
  assert.equal(compareSamples(base, headAt(0.15)).verdict, 'improvement');
});

test('clear no change: the same level with 1 % noise', () => {
  const result = compareSamples(base, headAt(0));
  assert.equal(result.verdict, 'no change');
  assert.ok(result.ci[0] > -0.05 && result.ci[1] < 0.05);
  assert.ok(result.pValue > 0.5);
});

test('noisy samples are inconclusive even with a real 15 % drop', () => {
  const noisy = compareSamples(rounds(1000, 20), headAt(-0.15, 20));
  assert.ok(noisy.cv.base > 0.15);
  assert.equal(noisy.verdict, 'inconclusive');
  assert.equal(compareSamples(rounds(1000, 20), headAt(0, 20)).verdict, 'inconclusive');
});

test('latency: smaller is better, so a rise is a regression and a drop an improvement', () => {
  const latencyBase = rounds(20);
  const slower = rounds(23, 1, NOISE.toReversed());
  assert.equal(compareSamples(latencyBase, slower, { direction: 'smaller' }).verdict, 'regression');
  assert.equal(compareSamples(latencyBase, slower, { direction: 'bigger' }).verdict, 'improvement');
  assert.equal(compareSamples(slower, latencyBase, { direction: 'smaller' }).verdict, 'improvement');
});

test('the threshold sets the band: a certain 3 % drop is a small regression at ±5 % and a regression at ±1 %', () => {
  assert.equal(compareSamples(base, headAt(-0.03)).verdict, 'small regression');
  assert.equal(compareSamples(base, headAt(-0.03), { threshold: 0.01 }).verdict, 'regression');
});

test('too few samples are inconclusive, with the change but no interval; minSamples is configurable', () => {
  const result = compareSamples(base.slice(0, 2), headAt(-0.15).slice(0, 2));
  assert.equal(result.verdict, 'inconclusive');
  assert.equal(result.ci, null);
  assert.equal(result.pValue, null);
  assert.ok(Math.abs(result.change + 0.15) < 0.01);
  assert.equal(compareSamples(base.slice(0, 5), headAt(-0.15)).verdict, 'regression');
  assert.equal(compareSamples(base.slice(0, 5), headAt(-0.15), { minSamples: 6 }).verdict, 'inconclusive');
});

test('no change is an equivalence: the narrower equivalence interval inside the margin, the shown one containing zero', () => {
  const band = { direction: 'bigger', threshold: 0.05, minimumEffect: 0.02 };
  // The 95 % interval reaches past the band, the 90 % one does not: no change, from fewer rounds.
  assert.equal(classifyInterval([-0.06, 0.04], band), 'inconclusive');
  assert.equal(classifyInterval([-0.06, 0.04], { ...band, equivalenceInterval: [-0.045, 0.03] }), 'no change');
  // An interval that excludes zero is a change whatever the equivalence interval says.
  assert.equal(classifyInterval([-0.04, -0.001], { ...band, equivalenceInterval: [-0.03, -0.01] }), 'small regression');
  // Too few rounds for a 95 % interval: only no change can be called, and only if the shown 90 % one holds zero.
  assert.equal(classifyInterval(null, { ...band, equivalenceInterval: [-0.03, 0.02] }), 'no change');
  assert.equal(classifyInterval(null, { ...band, equivalenceInterval: [0.001, 0.03] }), 'inconclusive');
  assert.equal(classifyInterval(null, { ...band, equivalenceInterval: [-0.03, 0] }), 'no change');
  assert.equal(classifyInterval(null, band), 'inconclusive');
  // The estimate beyond the minimum effect keeps the sampling going.
  assert.equal(classifyInterval(null, { ...band, equivalenceInterval: [-0.01, 0.045], change: 0.021 }), 'inconclusive');
  // Within the minimum effect as the margin (a confirming run): inside the band is not enough.
  const strict = { ...band, equivalenceMargin: 0.02 };
  assert.equal(classifyInterval([-0.03, 0.01], strict), 'inconclusive');
  assert.equal(classifyInterval([-0.019, 0.015], strict), 'no change');
  assert.equal(classifyInterval([-0.02, 0.015], strict), 'inconclusive');
});

test('paired rounds: five can call no change at a 90 % equivalence level, none at 95 %', () => {
  const five = base.slice(0, 5);
  const head = headAt(0).slice(0, 5);
  const strict = compareSamples(five, head, { interval: 'paired' });
  assert.deepEqual([strict.verdict, strict.ci, strict.equivalenceCi], ['inconclusive', null, null]);
  const equivalence = compareSamples(five, head, { interval: 'paired', equivalenceConfidence: 0.9 });
  assert.equal(equivalence.verdict, 'no change');
  assert.equal(equivalence.ci, null);
  assert.ok(equivalence.equivalenceCi[0] <= 0 && equivalence.equivalenceCi[1] >= 0);
  assert.ok(equivalence.equivalenceCi[0] > -0.05 && equivalence.equivalenceCi[1] < 0.05);
  // A certain slowdown is still no verdict before the 95 % interval exists.
  assert.equal(
    compareSamples(five, headAt(-0.15).slice(0, 5), { interval: 'paired', equivalenceConfidence: 0.9 }).verdict,
    'inconclusive',
  );
  assert.throws(
    () => compareSamples(base, headAt(0), { equivalenceConfidence: 0.99 }),
    /equivalenceConfidence must lie above 0 and at most the confidence 0.95/,
  );
  assert.throws(
    () => compareSamples(base, headAt(0), { equivalenceMargin: 0.06 }),
    /equivalenceMargin must lie between 0 and the threshold 0.05/,
  );
});

test('the bootstrap interval can drive the verdict instead, and is recorded', () => {
  const result = compareSamples(base, headAt(-0.15), { interval: 'bootstrap', seed: 9 });
  assert.equal(result.verdict, 'regression');
  assert.equal(result.interval, 'bootstrap');
  assert.deepEqual(result.ci, compareSamples(base, headAt(-0.15), { interval: 'bootstrap', seed: 9 }).ci);
  assert.equal(compareSamples(base, headAt(-0.15)).interval, 'welch');
});

test('the result records the settings a verdict was read with', () => {
  const result = compareSamples(base, headAt(0), { direction: 'smaller', threshold: 0.02 });
  assert.equal(result.direction, 'smaller');
  assert.equal(result.threshold, 0.02);
  assert.equal(DEFAULTS.threshold, 0.05);
});

test('bad input is refused with a message saying what is wrong', () => {
  assert.throws(() => compareSamples(base, [1, Number.NaN, 3]), /head samples must be an array of finite numbers/);
  assert.throws(() => compareSamples('1,2,3', base), /base samples/);
  assert.throws(() => compareSamples(base, base, { direction: 'up' }), /direction must be "bigger" or "smaller"/);
  assert.throws(() => compareSamples(base, base, { threshold: -0.05 }), /threshold/);
  assert.throws(() => compareSamples(base, base, { confidence: 95 }), /confidence/);
  assert.throws(() => compareSamples(base, base, { minSamples: 1 }), /minSamples/);
  assert.throws(() => compareSamples(base, base, { interval: 'bayes' }), /interval/);
  assert.throws(() => compareSamples([0, 0, 0], base), /base mean must be positive/);
});

test('failsGate: only a regression whose whole interval lies beyond the fail threshold', () => {
  assert.equal(failsGate(compareSamples(base, headAt(-0.2))), true);
  assert.equal(failsGate(compareSamples(base, headAt(-0.2)), 0.25), false);
  assert.equal(failsGate(compareSamples(base, headAt(0.2))), false);
  assert.equal(failsGate(compareSamples(base, headAt(0))), false);
  const straddling = { verdict: 'regression', ci: [-0.14, -0.07], direction: 'bigger' };
  assert.equal(failsGate(straddling), false);
  assert.equal(failsGate(straddling, 0.06), true);
  assert.equal(failsGate({ verdict: 'inconclusive', ci: [-0.3, -0.04], direction: 'bigger' }), false);
  assert.equal(failsGate({ verdict: 'inconclusive', ci: null, direction: 'bigger' }), false);
});

test('failsGate on latency: a rise whose whole interval is above +10 %', () => {
  assert.equal(failsGate({ verdict: 'regression', ci: [0.12, 0.18], direction: 'smaller' }), true);
  assert.equal(failsGate({ verdict: 'regression', ci: [0.08, 0.18], direction: 'smaller' }), false);
});

test('classifyInterval: a minimum effect below the band calls changes the band alone would leave on its edge', () => {
  const horizons = { direction: 'bigger', threshold: 0.05, minimumEffect: 0.02 };
  assert.equal(classifyInterval([-0.065, -0.035], horizons), 'regression', 'a true 5 % drop');
  assert.equal(classifyInterval([-0.065, -0.035], { direction: 'bigger', threshold: 0.05 }), 'inconclusive');
  assert.equal(classifyInterval([-0.03, 0.01], horizons), 'no change');
  assert.equal(classifyInterval([-0.08, -0.01], horizons), 'inconclusive');
  assert.equal(classifyInterval([0.025, 0.04], horizons), 'improvement');
});

// The rule's edges (METHOD.md, section 3), band ±5 %, minimum effect 2 %, fail threshold 10 %.
const horizons = { direction: 'bigger', threshold: 0.05, minimumEffect: 0.02 };

test('an interval that excludes zero is never "no change": inside the band it is a small regression or improvement', () => {
  assert.equal(classifyInterval([-0.045, -0.019], horizons), 'small regression', 'the issue’s +3.3 % [+1.9, +4.5]');
  assert.equal(classifyInterval([-0.03, -0.0001], horizons), 'small regression');
  assert.equal(classifyInterval([0.0001, 0.03], horizons), 'small improvement');
  assert.equal(classifyInterval([-0.019, -0.001], horizons), 'small regression', 'wholly inside ±min-effect');
  assert.equal(classifyInterval([0.001, 0.019], horizons), 'small improvement', 'wholly inside ±min-effect');
  assert.equal(classifyInterval([-0.04, -0.02], horizons), 'small regression', 'touching -min-effect is not beyond it');
  assert.equal(classifyInterval([-0.04, -0.0201], horizons), 'regression');
});

test('an interval touching zero has not excluded it: no change if its estimate is inside ±min-effect', () => {
  assert.equal(classifyInterval([-0.03, 0], { ...horizons, change: -0.01 }), 'no change');
  assert.equal(classifyInterval([0, 0.03], { ...horizons, change: 0.01 }), 'no change');
  assert.equal(classifyInterval([-0.015, 0.015], { ...horizons, change: 0 }), 'no change', 'inside ±min-effect');
});

test('an estimate beyond the minimum effect makes a change likely: inconclusive, so the sampling goes on', () => {
  assert.equal(classifyInterval([-0.045, 0.004], { ...horizons, change: -0.025 }), 'inconclusive');
  assert.equal(classifyInterval([-0.045, 0.004], { ...horizons, change: -0.02 }), 'inconclusive', 'on the edge');
  assert.equal(classifyInterval([-0.045, 0.004], { ...horizons, change: -0.01 }), 'no change');
  assert.equal(classifyInterval([-0.045, 0.004], horizons), 'inconclusive', 'the midpoint, -2.05 %, by default');
});

test('a certain direction whose size straddles the band is inconclusive; touching the band has not cleared it', () => {
  assert.equal(classifyInterval([-0.07, -0.01], horizons), 'inconclusive');
  assert.equal(classifyInterval([0.01, 0.07], horizons), 'inconclusive');
  assert.equal(classifyInterval([-0.05, -0.01], horizons), 'inconclusive');
  assert.equal(classifyInterval([-0.0499, -0.01], horizons), 'small regression');
  assert.equal(classifyInterval([-0.07, -0.025], horizons), 'regression', 'beyond -min-effect, across the band');
});

test('latency: a certain small rise is a small regression', () => {
  const latency = { ...horizons, direction: 'smaller' };
  assert.equal(classifyInterval([0.01, 0.03], latency), 'small regression');
  assert.equal(classifyInterval([-0.03, -0.01], latency), 'small improvement');
});

test('the gate: a small regression passes it, unless a band wider than the gate puts it beyond', () => {
  assert.equal(failsGate({ verdict: 'small regression', ci: [-0.045, -0.019], direction: 'bigger' }), false);
  const straddlingGate = { verdict: 'regression', ci: [-0.12, -0.08], direction: 'bigger' };
  assert.equal(failsGate(straddlingGate), false, 'straddling the gate');
  assert.equal(failsGate({ ...straddlingGate, ci: [-0.12, -0.1] }), false, 'touching the gate');
  assert.equal(failsGate({ ...straddlingGate, ci: [-0.12, -0.101] }), true);
  const wide = { direction: 'bigger', threshold: 0.2, minimumEffect: 0.2 };
  assert.equal(classifyInterval([-0.15, -0.11], wide), 'small regression');
  assert.equal(failsGate({ verdict: 'small regression', ci: [-0.15, -0.11], direction: 'bigger' }), true);
  assert.equal(failsGate({ verdict: 'small improvement', ci: [0.11, 0.15], direction: 'smaller' }), false);
});

test('compareSamples judges with the estimate it computed (the paired Hodges–Lehmann one)', () => {
  // Ratios head/base: +3.5, +4, -0.5, +3, +3.8, +2.9 %: every one of 6 pairs but one slower; the exact
  // 95 % interval of 6 pairs spans them all, so it contains zero, but the estimate is a likely change.
  const ratios = [1.035, 1.04, 0.995, 1.03, 1.038, 1.029];
  const result = compareSamples(
    ratios.map(() => 100),
    ratios.map((ratio) => 100 * ratio),
    { direction: 'smaller', threshold: 0.05, minimumEffect: 0.02, interval: 'paired' },
  );
  assert.ok(result.ci[0] < 0 && result.ci[1] < 0.05 && result.change > 0.02);
  assert.equal(result.verdict, 'inconclusive');
});

test('over many seeded intervals and estimates, one that excludes zero is never "no change"', () => {
  const random = seededRandom(26);
  const horizonsOf = [
    horizons,
    { direction: 'smaller', threshold: 0.05, minimumEffect: 0.02 },
    { direction: 'bigger', threshold: 0.1 },
  ];
  for (let draw = 0; draw < 20_000; draw += 1) {
    const a = (random() - 0.5) * 0.3;
    const b = (random() - 0.5) * 0.3;
    const interval = [Math.min(a, b), Math.max(a, b)];
    const change = interval[0] + random() * (interval[1] - interval[0]);
    const verdict = classifyInterval(interval, { ...horizonsOf[draw % 3], change });
    if (interval[0] > 0 || interval[1] < 0) assert.notEqual(verdict, 'no change', `${interval}`);
    if (verdict === 'no change') assert.ok(interval[0] <= 0 && interval[1] >= 0);
  }
});
