// Welch's unequal-variances two-sample t-test (Welch 1947), the test of Node core's benchmark/compare.R (R's t.test).
import { samplingDistributionOfMean } from './descriptive.js';
import { satterthwaiteDf, twoSidedPValue } from './t-distribution.js';

// t = (mean head - mean base) / sqrt(var_b/n_b + var_h/n_h), Welch–Satterthwaite df, two-sided p-value.
// Constant samples (zero standard error) give t = 0 and p = 1 when the means are equal, t = ±Infinity and p = 0 when not,
// with the pooled df n_b + n_h - 2 of Student's test, to which Welch's reduces when the variances are equal.
export function welchTTest(base, head) {
  const baseMean = samplingDistributionOfMean(base);
  const headMean = samplingDistributionOfMean(head);
  const difference = headMean.mean - baseMean.mean;
  const standardError = Math.sqrt(baseMean.variance + headMean.variance);
  if (standardError === 0) {
    return {
      t: difference === 0 ? 0 : Math.sign(difference) * Infinity,
      df: base.length + head.length - 2,
      pValue: difference === 0 ? 1 : 0,
    };
  }
  const t = difference / standardError;
  const df = satterthwaiteDf([baseMean, headMean]);
  return { t, df, pValue: twoSidedPValue(t, df) };
}
