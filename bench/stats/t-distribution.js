// Student's t distribution, from jstat, and the Welch–Satterthwaite degrees of freedom.
import jstat from 'jstat';

const { studentt } = jstat;

// Critical value t* with P(|T| <= t*) = confidence for T ~ t(df): the multiplier of a two-sided interval.
export const twoSidedCriticalValue = (confidence, df) => studentt.inv(1 - (1 - confidence) / 2, df);

// Two-sided p-value P(|T| >= |t|) for T ~ t(df); computed from the lower tail to keep precision for tiny p.
export const twoSidedPValue = (t, df) => (Number.isFinite(t) ? Math.min(1, 2 * studentt.cdf(-Math.abs(t), df)) : 0);

// Welch–Satterthwaite degrees of freedom of a sum of independent variance estimates, each { variance, df }:
// (sum v)^2 / sum(v^2 / df) (Satterthwaite 1946, https://en.wikipedia.org/wiki/Welch%E2%80%93Satterthwaite_equation).
export function satterthwaiteDf(components) {
  const total = components.reduce((sum, { variance }) => sum + variance, 0);
  const spread = components.reduce((sum, { variance, df }) => sum + variance ** 2 / df, 0);
  return total ** 2 / spread;
}

// Two-sided t interval estimate ± t* x standardError; a zero standard error (constant samples) gives a point.
export function tInterval(estimate, standardError, df, confidence) {
  const margin = standardError === 0 ? 0 : twoSidedCriticalValue(confidence, df) * standardError;
  return [estimate - margin, estimate + margin];
}
