// The least-squares line through points (x, y), and its slope's two-sided t interval (ordinary
// least squares, e.g. Montgomery, Introduction to Linear Regression Analysis, §2.3): how fast y
// grows per unit of x, and how sure that is. Several groups of points (a soak's processes and
// rounds, each with a heap level of its own) share one slope and keep their own intercepts (the
// pooled within-group slope of an analysis of covariance): their centred sums add up, and the
// degrees of freedom are the points less one per intercept, less one for the slope.
import { mean } from './descriptive.js';
import { tInterval } from './t-distribution.js';

/**
 * A group's centred sums, all a pooled trend needs of it (small enough to keep per round).
 * @param {[number, number][]} points
 * @returns {{n: number, sxx: number, sxy: number, syy: number}}
 */
export function trendMoments(points) {
  const [xBar, yBar] = [mean(points.map(([x]) => x)), mean(points.map(([, y]) => y))];
  const moments = { n: points.length, sxx: 0, sxy: 0, syy: 0 };
  for (const [x, y] of points) {
    moments.sxx += (x - xBar) ** 2;
    moments.sxy += (x - xBar) * (y - yBar);
    moments.syy += (y - yBar) ** 2;
  }
  return moments;
}

/** The residual sum of squares of a group's own line (0 for two points or fewer). */
export const residualSquares = ({ sxx, sxy, syy }) => (sxx > 0 ? Math.max(0, syy - sxy ** 2 / sxx) : syy);

/**
 * One slope through several groups, each with its own intercept, or null when they cannot give
 * one (no spread in x, or no degree of freedom left).
 * @param {{n: number, sxx: number, sxy: number, syy: number}[]} groups  trendMoments of each
 * @returns {{slope: number, interval: [number, number], degreesOfFreedom: number} | null}
 */
export function pooledTrend(groups, confidence = 0.95) {
  const total = (key) => groups.reduce((sum, group) => sum + group[key], 0);
  const [sxx, sxy, syy] = [total('sxx'), total('sxy'), total('syy')];
  const degreesOfFreedom = total('n') - groups.length - 1;
  if (!(sxx > 0) || degreesOfFreedom < 1) return null;
  const slope = sxy / sxx;
  const residuals = Math.max(0, syy - slope * sxy);
  const standardError = Math.sqrt(residuals / degreesOfFreedom / sxx);
  return { slope, interval: tInterval(slope, standardError, degreesOfFreedom, confidence), degreesOfFreedom };
}

/**
 * @param {[number, number][]} points  at least 3, with at least two different x
 * @param {number} confidence  e.g. 0.95
 * @returns {{slope: number, interval: [number, number]}}
 */
export function linearTrend(points, confidence = 0.95) {
  const { slope, interval } = pooledTrend([trendMoments(points)], confidence);
  return { slope, interval };
}
