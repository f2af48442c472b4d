import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../bench/stats/prng.js';
import { bootstrapInterval, deltaMethodInterval, relativeChange } from '../bench/stats/relative-difference.js';

const BASE = [12.1, 11.8, 12.6, 12.0, 11.5, 12.3];
const HEAD = [13.0, 12.7, 13.4, 12.9, 13.8];
const close = (actual, expected, tolerance) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

test('relative change is (head - base) / base', () => {
  assert.equal(relativeChange(200, 150), -0.25);
  assert.equal(relativeChange(100, 110), 0.1);
});

test('delta-method interval matches an independent numpy/scipy computation', () => {
  // change 0.0921..., Var by the delta method, t quantile at the Satterthwaite df 8.4668 of its two terms.
  const [low, high] = deltaMethodInterval(BASE, HEAD);
  close(low, 0.04275285556074513, 1e-9);
  close(high, 0.14147950958448333, 1e-9);
  const [wideLow, wideHigh] = deltaMethodInterval(BASE, HEAD, { confidence: 0.99 });
  assert.ok(wideLow < low && wideHigh > high);
});

test('delta-method interval of constant samples is the point change', () => {
  assert.deepEqual(deltaMethodInterval([10, 10, 10], [11, 11, 11]), [relativeChange(10, 11), relativeChange(10, 11)]);
});

test('the seeded generator repeats its sequence and stays in [0, 1)', () => {
  const first = seededRandom(7);
  const second = seededRandom(7);
  const draws = Array.from({ length: 1000 }, () => first());
  assert.deepEqual(
    draws,
    Array.from({ length: 1000 }, () => second()),
  );
  assert.ok(draws.every((draw) => draw >= 0 && draw < 1));
  assert.notEqual(seededRandom(8)(), seededRandom(7)());
});

test('bootstrap interval is deterministic for a seed and varies with it', () => {
  const once = bootstrapInterval(BASE, HEAD, { seed: 42 });
  assert.deepEqual(bootstrapInterval(BASE, HEAD, { seed: 42 }), once);
  assert.notDeepEqual(bootstrapInterval(BASE, HEAD, { seed: 43 }), once);
  assert.deepEqual(bootstrapInterval(BASE, HEAD), bootstrapInterval(BASE, HEAD, { seed: 1 }));
});

test('bootstrap interval brackets the change and is narrower than the t-based one on a small sample', () => {
  const [low, high] = bootstrapInterval(BASE, HEAD);
  const change = relativeChange(12.05, 13.16);
  assert.ok(low < change && change < high);
  const [deltaLow, deltaHigh] = deltaMethodInterval(BASE, HEAD);
  assert.ok(high - low < deltaHigh - deltaLow);
});
