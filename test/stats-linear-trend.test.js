// The least-squares trend and its slope's interval (bench/stats/linear-trend.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linearTrend } from '../bench/stats/linear-trend.js';

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
