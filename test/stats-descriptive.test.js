import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  coefficientOfVariation,
  mean,
  median,
  quantile,
  samplingDistributionOfMean,
  standardDeviation,
  variance,
} from '../bench/stats/descriptive.js';

// Reference values from numpy (ddof=1 for the variance, numpy's default linear quantile).
const BASE = [1021, 998, 1010, 1005, 987, 1015, 1002, 995];
const close = (actual, expected, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

test('mean, unbiased variance, standard deviation and coefficient of variation match numpy', () => {
  close(mean(BASE), 1004.125);
  close(variance(BASE), 122.41071428571429);
  close(standardDeviation(BASE), 11.0639375579273);
  close(coefficientOfVariation(BASE), 0.011018486301931831);
});

test('median and quantiles interpolate linearly between order statistics', () => {
  close(median(BASE), 1003.5);
  close(median([3, 1, 2]), 2);
  close(quantile(BASE, 0.9), 1016.8);
  close(quantile(BASE, 0), 987);
  close(quantile(BASE, 1), 1021);
});

test('quantile does not reorder its input', () => {
  const values = [3, 1, 2];
  quantile(values, 0.5);
  assert.deepEqual(values, [3, 1, 2]);
});

test('the sampling distribution of the mean has variance var / n and n - 1 degrees of freedom', () => {
  const { mean: centre, variance: squaredError, df } = samplingDistributionOfMean(BASE);
  close(centre, 1004.125);
  close(squaredError, 122.41071428571429 / 8);
  assert.equal(df, 7);
});
