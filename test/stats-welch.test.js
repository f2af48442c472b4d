import assert from 'node:assert/strict';
import { test } from 'node:test';
import { welchTTest } from '../bench/stats/welch.js';

// Reference values from scipy.stats.ttest_ind(head, base, equal_var=False), which agrees with R's t.test.
const CASES = [
  {
    name: 'a clear shift, unequal sizes',
    base: [12.1, 11.8, 12.6, 12.0, 11.5, 12.3],
    head: [13.0, 12.7, 13.4, 12.9, 13.8],
    t: 4.418840229052086,
    df: 8.083830754862543,
    pValue: 0.002174032743490788,
  },
  {
    name: 'unequal variances',
    base: [1021, 998, 1010, 1005, 987, 1015, 1002, 995],
    head: [960, 1040, 910, 1075, 990],
    t: -0.3111054173406939,
    df: 4.14539962617897,
    pValue: 0.7707403500211795,
  },
  {
    name: 'two samples of the same thing (A/A)',
    base: [5.1, 4.9, 5.0, 5.2],
    head: [5.0, 5.1, 4.8, 5.2],
    t: -0.23354968324846023,
    df: 5.58461538461538,
    pValue: 0.8236578021069827,
  },
];

const close = (actual, expected, tolerance) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

for (const { name, base, head, t, df, pValue } of CASES) {
  test(`Welch t-test matches scipy: ${name}`, () => {
    const result = welchTTest(base, head);
    close(result.t, t, 1e-9);
    close(result.df, df, 1e-9);
    close(result.pValue, pValue, 1e-7);
  });
}

test('constant samples: equal means give p = 1, different means give p = 0', () => {
  assert.deepEqual(welchTTest([10, 10, 10], [10, 10, 10]), { t: 0, df: 4, pValue: 1 });
  assert.deepEqual(welchTTest([10, 10, 10], [12, 12, 12]), { t: Infinity, df: 4, pValue: 0 });
});
