import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareSamples } from '../bench/stats/verdict.js';
import { pairedRatio } from '../bench/stats/paired-ratio.js';
import { seededRandom } from '../bench/stats/prng.js';
import { hodgesLehmann, signedRankCdf, signedRankTest } from '../bench/stats/signed-rank.js';

const close = (actual, expected, tolerance = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

test('the null distribution of W+ is exact: n = 9 has 10 of 512 sign patterns with W+ <= 5', () => {
  const cdf = signedRankCdf(9);
  assert.equal(cdf.length, 46);
  close(cdf[5], 10 / 512);
  close(cdf.at(-1), 1);
  close(cdf[0], 1 / 512);
  // symmetric about n(n+1)/4: P(W+ <= w) = P(W+ >= 45 - w)
  close(cdf[10], 1 - cdf[34]);
});

test("signed-rank test matches R's wilcox.test(x, y, paired = TRUE) example: V = 40, p = 0.03906", () => {
  const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
  const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
  const result = signedRankTest(x.map((value, index) => value - y[index]));
  assert.equal(result.w, 40);
  close(result.pValue, 20 / 512);
});

test('signed-rank test drops zero differences and gives p = 1 when nothing differs', () => {
  assert.deepEqual(signedRankTest([0, 0, 0]), { w: 0, n: 0, pValue: 1 });
  assert.equal(signedRankTest([0, 1, 2, 3]).n, 3);
});

test('Hodges–Lehmann estimate is the median of the Walsh averages', () => {
  // Walsh averages of [1, 2, 3]: 1, 1.5, 2, 2, 2.5, 3
  assert.equal(hodgesLehmann([1, 2, 3]).estimate, 2);
  assert.equal(hodgesLehmann([0, 0, 0, 10]).estimate, 0);
});

test('fewer than 6 pairs cannot reach 95 %: no interval; 6 pairs give the widest one', () => {
  assert.equal(hodgesLehmann([1, 2, 3, 4, 5]).intervalAt(0.95), null);
  assert.deepEqual(hodgesLehmann([3, 1, 4, 1, 5, 9]).intervalAt(0.95), [1, 9]);
});

test('the interval inverts the test: just inside its ends p > 0.05, just outside p <= 0.05', () => {
  const random = seededRandom(11);
  for (let trial = 0; trial < 20; trial += 1) {
    const differences = Array.from({ length: 6 + trial }, () => random() - 0.4);
    const [low, high] = hodgesLehmann(differences).intervalAt(0.95);
    const pAt = (theta) => signedRankTest(differences.map((difference) => difference - theta)).pValue;
    const epsilon = 1e-9;
    assert.ok(pAt(low + epsilon) > 0.05 && pAt(high - epsilon) > 0.05, `inside [${low}, ${high}]`);
    assert.ok(pAt(low - epsilon) <= 0.05 && pAt(high + epsilon) <= 0.05, `outside [${low}, ${high}]`);
  }
});

test('paired ratios: head exactly 10 % below base in every round is a change of -10 %', () => {
  const base = [7000, 6500, 7200, 5000, 6900, 7100];
  const result = pairedRatio(
    base,
    base.map((value) => value * 0.9),
  );
  close(result.change, -0.1);
  for (const end of result.ci) close(end, -0.1);
});

test('paired ratios: a round of 0 has no ratio, and unpaired samples are refused', () => {
  assert.deepEqual(pairedRatio([1, 2, 0, 4, 5, 6], [1, 2, 3, 4, 5, 6]), {
    change: null,
    ci: null,
    equivalenceCi: null,
    pValue: null,
    reason: 'a round measured 0',
  });
  assert.throws(() => pairedRatio([1, 2, 3], [1, 2]), /as many base as head samples/);
});

test('the paired interval sees a steady 5 % drop through drift and one wrecked round that leave Welch inconclusive', () => {
  // The machine drifts between 5500 and 7000 req/s; head is 5 % slower within each pair; round 4 lost 30 % to a burst.
  const base = [7000, 6400, 5600, 6900, 5500, 6800, 6100, 5900, 6700, 6300, 5700, 6600];
  const head = base.map((value, index) => value * 0.95 * (index === 3 ? 0.7 : 1) * (1 + 0.01 * Math.sin(index)));
  const settings = { direction: 'bigger', threshold: 0.05, minimumEffect: 0.02 };
  const welch = compareSamples(base, head, { ...settings, interval: 'welch' });
  const paired = compareSamples(base, head, { ...settings, interval: 'paired' });
  assert.equal(welch.verdict, 'inconclusive');
  assert.equal(paired.verdict, 'regression');
  assert.equal(paired.interval, 'paired');
  assert.ok(paired.change < -0.04 && paired.change > -0.06, `change ${paired.change}`);
  assert.ok(paired.pValue < 0.05);
});
