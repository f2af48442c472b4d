// The least-squares trend and its slope's interval (bench/stats/linear-trend.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linearTrend, pooledTrend, trendMoments } from '../bench/stats/linear-trend.js';
import { settledStart } from '../bench/stats/settled-trend.js';

test('a straight line: its slope, and an interval of no width', () => {
  assert.deepEqual(
    linearTrend([
      [0, 1],
      [1, 3],
      [2, 5],
      [3, 7],
    ]),
    { slope: 2, interval: [2, 2] },
  );
});

test('noisy points: the slope of least squares, inside its t interval with n − 2 degrees of freedom', () => {
  const { slope, interval } = linearTrend([
    [0, 1],
    [1, 3.2],
    [2, 4.9],
    [3, 7.1],
    [4, 8.8],
  ]);
  assert.ok(Math.abs(slope - 1.95) < 1e-12);
  // Residual variance 0.0683 / 10 = 0.00683, standard error 0.0500; t(0.975, 3) = 3.182.
  assert.ok(Math.abs(interval[1] - slope - 3.182 * 0.05) < 0.001, `${interval}`);
});

test('groups at their own levels share one slope, as if each had its own intercept', () => {
  const line = (offset) => [0, 1, 2, 3].map((x) => [x * 10, offset + 2 * x * 10 + (x % 2 ? 1 : -1)]);
  const pooled = pooledTrend([trendMoments(line(0)), trendMoments(line(1e6))]);
  // One slope for both, from 8 points less two intercepts and the slope.
  assert.equal(pooled.degreesOfFreedom, 5);
  assert.ok(Math.abs(pooled.slope - linearTrend(line(0)).slope) < 1e-9);
  assert.ok(pooled.interval[0] < pooled.slope && pooled.slope < pooled.interval[1]);
  assert.equal(pooledTrend([trendMoments([[5, 1]])]), null, 'one point: no trend');
});

test('a warm-up is set apart where the growth settles, in the first half at most', () => {
  // Fast growth over the first four samples, then a slow steady one.
  const warm = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((x) => [x * 100, x <= 3 ? x * 1000 : 3000 + (x - 3) * 10]);
  assert.equal(settledStart(warm), 3);
  // Steep all the way: the trend still keeps at least half of the points.
  assert.ok(settledStart(warm.map(([x]) => [x, x * x])) <= 6);
  assert.equal(settledStart(warm.slice(0, 3)), null, 'too few for a warm-up and a trend of three');
});
