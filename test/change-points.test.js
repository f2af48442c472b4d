import assert from 'node:assert/strict';
import { test } from 'node:test';
import { twoSidedPValue } from '../bench/stats/t-distribution.js';
import { syntheticSeries } from '../bench/history/detect/synthetic.js';
import { CHANGE_POINT_DEFAULTS, detectChangePoints, studentTwoSidedPValue } from '../site/shared/change-points.js';

// Normal noise (cv 2 %) around a level that changes at the given runs.
const series = ({ length, noise = 0.02, steps = [], seed = 1 }) =>
  syntheticSeries({ length, mean: 5000, cv: noise, steps, seed });

test('the t p-value agrees with jstat from the near centre to the far tail', () => {
  for (const [t, df] of [
    [0.1, 3],
    [1, 10],
    [2.5, 7.3],
    [-4, 58],
    [8, 1000],
    [30, 40],
  ]) {
    const expected = twoSidedPValue(t, df);
    const actual = studentTwoSidedPValue(t, df);
    assert.ok(
      Math.abs(actual - expected) <= 1e-9 * Math.max(1, expected) || Math.abs(actual / expected - 1) < 1e-6,
      `t=${t} df=${df}: ${actual} vs ${expected}`,
    );
  }
  assert.equal(studentTwoSidedPValue(0, 5), 1);
  assert.equal(studentTwoSidedPValue(Infinity, 5), 0);
});

test('a 10 % step under 2 % noise is found at the first point after it, with both sides described', () => {
  const values = series({ length: 400, steps: [{ at: 250, factor: 1.1 }] });
  const points = detectChangePoints(values);
  assert.equal(points.length, 1);
  const [point] = points;
  assert.equal(point.index, 250);
  assert.equal(point.before.n, 250);
  assert.equal(point.after.n, 150);
  assert.ok(Math.abs(point.change - 0.1) < 0.01, `change ${point.change}`);
  assert.ok(Math.abs(point.after.mean / point.before.mean - 1 - point.change) < 1e-12);
  assert.ok(point.pValue < CHANGE_POINT_DEFAULTS.maxPValue);
});

test('a drop and a later recovery are two change points, each judged against its own neighbours', () => {
  const values = series({
    length: 600,
    steps: [
      { at: 200, factor: 0.9 },
      { at: 420, factor: 1 / 0.9 },
    ],
    seed: 7,
  });
  const points = detectChangePoints(values);
  assert.deepEqual(
    points.map((p) => p.index),
    [200, 420],
  );
  assert.ok(points[0].change < -0.08 && points[1].change > 0.08);
  assert.equal(points[0].after.n, 220);
  assert.equal(points[1].before.n, 220);
});

test('pure noise (A/A): a strict maxPValue finds nothing; constant or tiny series have no change points', () => {
  // At any level a long noise series shows some now and then (E-Divisive searches many splits:
  // multiple testing); scripts/measure-detect.mjs measures that rate. A strict level removes them.
  for (const seed of [2, 3, 4])
    assert.deepEqual(detectChangePoints(series({ length: 1800, seed }), { maxPValue: 1e-6 }), [], `seed ${seed}`);
  assert.deepEqual(detectChangePoints(Array(100).fill(42)), []);
  assert.deepEqual(detectChangePoints([]), []);
  assert.deepEqual(detectChangePoints([1]), []);
});

test('a step between two constant levels has p = 0; a series starting at 0 reports change as null', () => {
  const [point] = detectChangePoints([...Array(20).fill(10), ...Array(20).fill(12)]);
  assert.deepEqual(point, {
    index: 20,
    before: { mean: 10, n: 20 },
    after: { mean: 12, n: 20 },
    change: 0.2,
    pValue: 0,
  });
  const [fromZero] = detectChangePoints([...Array(20).fill(0), ...Array(20).fill(3)]);
  assert.equal(fromZero.change, null);
});

test('minMagnitude drops significant but small steps; a stricter p keeps only the clear one', () => {
  const values = series({
    length: 600,
    noise: 0.005,
    steps: [
      { at: 200, factor: 1.02 },
      { at: 400, factor: 1.3 },
    ],
    seed: 11,
  });
  assert.deepEqual(
    detectChangePoints(values).map((p) => p.index),
    [200, 400],
  );
  assert.deepEqual(
    detectChangePoints(values, { minMagnitude: 0.05 }).map((p) => p.index),
    [400],
  );
});

test('bad input names the problem', () => {
  assert.throws(() => detectChangePoints('1,2,3'), /values must be an array of numbers/);
  assert.throws(() => detectChangePoints([1, null, 3]), /values\[1\] is null; pass finite numbers only/);
  assert.throws(() => detectChangePoints([1, 2], { windowLength: 1 }), /windowLength must be an integer >= 2/);
  assert.throws(() => detectChangePoints([1, 2], { maxPValue: 0 }), /maxPValue must be in \(0, 1\]/);
  assert.throws(() => detectChangePoints([1, 2], { minMagnitude: -1 }), /minMagnitude must be >= 0/);
});

test('minSegment: one outlying run at the end is a change point only when a segment may be one run long', () => {
  const values = [...series({ length: 120, seed: 3 }), 5000 * 0.75];
  assert.deepEqual(
    detectChangePoints(values, { minSegment: 1 }).map((p) => [p.index, p.after.n]),
    [[120, 1]],
  );
  assert.deepEqual(detectChangePoints(values, { minSegment: 3 }), []);
  // A real step is still found, once minSegment runs follow it.
  const step = series({ length: 123, steps: [{ at: 120, factor: 0.85 }], seed: 3 });
  assert.deepEqual(detectChangePoints(step.slice(0, 121), { minSegment: 3 }), []);
  assert.deepEqual(
    detectChangePoints(step, { minSegment: 3 }).map((p) => p.index),
    [120],
  );
  assert.throws(
    () => detectChangePoints([1, 2], { minSegment: 26 }),
    /minSegment must be an integer from 1 to windowLength \/ 2/,
  );
});
