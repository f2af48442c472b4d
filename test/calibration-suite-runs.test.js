// How calibrate's whole-suite runs print a duration (bench/comparison/calibration/suite-runs.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duration } from '../bench/comparison/calibration/suite-runs.js';

test('a suite time is rounded to the second before it is split into minutes', () => {
  assert.equal(duration(299.6), '5 min 00 s');
  assert.equal(duration(299.4), '4 min 59 s');
  assert.equal(duration(225), '3 min 45 s');
  assert.equal(duration(null), 'n/a');
});
