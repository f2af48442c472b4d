// The least-squares line through points (x, y), and its slope's two-sided t interval with n − 2
// degrees of freedom (ordinary least squares, e.g. Montgomery, Introduction to Linear Regression
// Analysis, §2.3): how fast y grows per unit of x, and how sure that is.
import { mean } from './descriptive.js';
import { tInterval } from './t-distribution.js';

/**
 * @param {[number, number][]} points  at least 3, with at least two different x
 * @param {number} confidence  e.g. 0.95
 * @returns {{slope: number, interval: [number, number]}}
 */
export function linearTrend(points, confidence = 0.95) {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [xBar, yBar] = [mean(xs), mean(ys)];
  const sxx = xs.reduce((sum, x) => sum + (x - xBar) ** 2, 0);
  const slope = points.reduce((sum, [x, y]) => sum + (x - xBar) * (y - yBar), 0) / sxx;
  const residuals = points.reduce((sum, [x, y]) => sum + (y - yBar - slope * (x - xBar)) ** 2, 0);
  const standardError = Math.sqrt(residuals / (points.length - 2) / sxx);
  return { slope, interval: tInterval(slope, standardError, points.length - 2, confidence) };
}
