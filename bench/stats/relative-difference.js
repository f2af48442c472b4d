// The relative difference of means, (mean head - mean base) / mean base, and two confidence intervals for it.
import { DEFAULTS } from './defaults.js';
import { quantile, samplingDistributionOfMean } from './descriptive.js';
import { seededRandom } from './prng.js';
import { satterthwaiteDf, tInterval } from './t-distribution.js';

// Point estimate of the relative change (Node core's "improvement", tachometer's relative difference).
export const relativeChange = (baseMean, headMean) => (headMean - baseMean) / baseMean;

// Delta-method interval, as tachometer's stats.ts: Var((b-a)/a) ~ (Va*mb^2 + Vb*ma^2) / ma^4 with V = var / n
// (http://blog.analytics-toolkit.com/2018/confidence-intervals-p-values-percent-change-relative-difference/),
// with a Student t multiplier whose df is Welch–Satterthwaite's over the two terms of that sum.
export function deltaMethodInterval(base, head, { confidence = DEFAULTS.confidence } = {}) {
  const a = samplingDistributionOfMean(base);
  const b = samplingDistributionOfMean(head);
  const terms = [
    { variance: (a.variance * b.mean ** 2) / a.mean ** 4, df: a.df },
    { variance: (b.variance * a.mean ** 2) / a.mean ** 4, df: b.df },
  ];
  const standardError = Math.sqrt(terms[0].variance + terms[1].variance);
  return tInterval(relativeChange(a.mean, b.mean), standardError, satterthwaiteDf(terms), confidence);
}

// Mean of a resample drawn with replacement (Efron's bootstrap resampling).
function resampledMean(values, random) {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(random() * values.length)];
  return sum / values.length;
}

// Percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13): resample each side independently, take the
// (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the resampled relative changes; seeded, so repeatable.
export function bootstrapInterval(
  base,
  head,
  { confidence = DEFAULTS.confidence, resamples = DEFAULTS.resamples, seed = DEFAULTS.seed } = {},
) {
  const random = seededRandom(seed);
  const changes = Array.from({ length: resamples }, () =>
    relativeChange(resampledMean(base, random), resampledMean(head, random)),
  );
  return [quantile(changes, (1 - confidence) / 2), quantile(changes, (1 + confidence) / 2)];
}
