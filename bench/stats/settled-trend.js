// Where a series' warm-up ends and its steady trend begins: the split of a two-segment
// least-squares fit (segmented regression, e.g. Hudson, JASA 1966) whose two lines leave the
// smallest residuals. A soak's heap grows fast at first (JIT code, feedback vectors, the string
// table, pools filling) and then at its steady rate, which is the leak; the split is searched in
// the first half only, so the trend always rests on at least half of the points.
import { residualSquares, trendMoments } from './linear-trend.js';

/**
 * @param {[number, number][]} points  in order of x
 * @param {number} minTrend  the fewest points the trend may keep
 * @returns {number | null}  the index of the trend's first point (at least 1: the first point is
 *   always warm-up), or null when there are too few points for a warm-up and such a trend
 */
export function settledStart(points, minTrend = 3) {
  const last = Math.min(Math.floor(points.length / 2), points.length - minTrend);
  if (last < 1) return null;
  let best = { start: 1, residuals: Number.POSITIVE_INFINITY };
  for (let start = 1; start <= last; start++) {
    const residuals =
      residualSquares(trendMoments(points.slice(0, start))) + residualSquares(trendMoments(points.slice(start)));
    if (residuals < best.residuals) best = { start, residuals };
  }
  return best.start;
}
