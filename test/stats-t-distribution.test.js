import assert from 'node:assert/strict';
import { test } from 'node:test';
import { satterthwaiteDf, tInterval, twoSidedCriticalValue, twoSidedPValue } from '../bench/stats/t-distribution.js';

// Reference values from scipy.stats.t (ppf and sf).
const close = (actual, expected, tolerance = 1e-6) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

test('two-sided critical values match scipy', () => {
  close(twoSidedCriticalValue(0.95, 1), 12.70620474);
  close(twoSidedCriticalValue(0.95, 4), 2.77644511);
  close(twoSidedCriticalValue(0.95, 10), 2.22813885);
  close(twoSidedCriticalValue(0.95, 30), 2.04227246);
  close(twoSidedCriticalValue(0.99, 10), 3.16927267);
});

test('two-sided p-values match scipy, keep precision in the far tail and never exceed 1', () => {
  close(twoSidedPValue(2.5, 7.3), 0.03965023466560043);
  close(twoSidedPValue(-2.5, 7.3), 0.03965023466560043);
  assert.ok(twoSidedPValue(30, 40) > 0 && twoSidedPValue(30, 40) < 1e-27);
  assert.equal(twoSidedPValue(0, 5), 1);
  assert.equal(twoSidedPValue(-Infinity, 5), 0);
});

test('Satterthwaite degrees of freedom: equal terms add up, a dominant term keeps its own', () => {
  close(
    satterthwaiteDf([
      { variance: 1, df: 9 },
      { variance: 1, df: 9 },
    ]),
    18,
  );
  close(
    satterthwaiteDf([
      { variance: 1, df: 9 },
      { variance: 0, df: 4 },
    ]),
    9,
  );
});

test('a t interval is symmetric around the estimate, and a point when the standard error is zero', () => {
  const [low, high] = tInterval(1, 0.5, 10, 0.95);
  close(low, 1 - 0.5 * 2.22813885);
  close(high, 1 + 0.5 * 2.22813885);
  assert.deepEqual(tInterval(0.2, 0, Number.NaN, 0.95), [0.2, 0.2]);
});
