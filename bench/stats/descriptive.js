// Descriptive statistics of one sample (an array of finite numbers, e.g. req/s per round).

// Arithmetic mean.
export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

// Unbiased sample variance: divides by n - 1 (Bessel's correction, https://en.wikipedia.org/wiki/Bessel%27s_correction).
// Fewer than two values show no spread: 0 (a run summary of one run); intervals need minSamples >= 2 anyway.
export function variance(values) {
  if (values.length < 2) return 0;
  const centre = mean(values);
  return values.reduce((sum, value) => sum + (value - centre) ** 2, 0) / (values.length - 1);
}

// Sample standard deviation: square root of the unbiased variance.
export const standardDeviation = (values) => Math.sqrt(variance(values));

// Coefficient of variation (relative standard deviation): stddev / mean, the noise level Node core's guide wants under 5 %.
export const coefficientOfVariation = (values) => standardDeviation(values) / mean(values);

// Quantile by linear interpolation between order statistics (Hyndman & Fan type 7, R's and numpy's default).
export function quantile(values, probability) {
  const sorted = Float64Array.from(values).sort();
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

// Median: the 0.5 quantile.
export const median = (values) => quantile(values, 0.5);

// Sampling distribution of the mean: the sample mean, its variance var / n (the squared standard error)
// and the n - 1 degrees of freedom of that variance estimate (https://onlinestatbook.com/2/sampling_distributions/samp_dist_mean.html).
export const samplingDistributionOfMean = (values) => ({
  mean: mean(values),
  variance: variance(values) / values.length,
  df: values.length - 1,
});
