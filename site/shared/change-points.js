// Change points in a performance series: the method of Hunter / Apache Otava (Fleming et al.,
// "Hunter: Using Change Point Detection to Hunt for Performance Regressions", ICPE 2023,
// https://doi.org/10.1145/3578244.3583719, arXiv 2301.03034), which is E-Divisive means
// (Matteson & James 2014, https://doi.org/10.48550/arXiv.1306.4933) with its permutation test
// replaced by a Student's t test between neighbouring segments, run in sliding windows:
//   1. split: slide a window (half-window steps) over the series; inside each window, E-Divisive
//      picks the split maximising the energy statistic Q-hat and keeps it while the t test of its
//      two sides is significant at a relaxed level (10x the final p for p < 0.05), recursing into
//      the pieces. The union over windows is the set of "weak" change points.
//   2. merge: recompute each weak point's t test against its whole neighbouring segments and drop
//      the weakest (largest p, or else smallest relative change under minMagnitude) until all
//      remaining points pass, re-testing the two neighbours of each removed point.
// Window 50 and min_magnitude 0 are Otava's defaults (AnalysisOptions). Two defaults differ, both
// chosen by scripts/measure-detect.mjs on this project's per-run noise (docs/github-actions.md):
// p < 0.0001 instead of Otava's 0.001, and segments of at least 3 runs (minSegment, the `min.size`
// of Matteson & James's E-Divisive in their R package ecp), so that one outlying run is not a step.
// With Otava's settings (maxPValue 0.001, minSegment 1) an A/A history at 4 % noise got a false
// change point within 40 runs 8 % of the time, and 69 % with occasional 20-30 % bursts; with
// these, 1 % and 7 %, while a 10 % step is still flagged 99 % of the time, 3 runs after it (median).
// Two deliberate differences from otava/analysis.py, both towards the textbook test: the t test
// uses sample variances (Otava feeds population SDs to scipy's ttest_ind_from_stats), and a merge
// removal re-tests the points on both sides of the removed one (Otava re-tests the next two).
// Pure and dependency-free: the trend site runs it in the browser, `npm run detect` in Node.

export const CHANGE_POINT_DEFAULTS = Object.freeze({
  windowLength: 50,
  maxPValue: 0.0001,
  minMagnitude: 0,
  minSegment: 3,
});

/**
 * @param {number[]} values a series, oldest first
 * @param {{ windowLength?: number, maxPValue?: number, minMagnitude?: number, minSegment?: number }} [options]
 * @returns {{ index: number, before: { mean: number, n: number }, after: { mean: number, n: number },
 *   change: number | null, pValue: number }[]} index is the first point after the step; change is
 *   (after - before) / before, null when the mean before is 0.
 */
export function detectChangePoints(values, options = {}) {
  const { windowLength, maxPValue, minMagnitude, minSegment } = checkedOptions(options);
  const series = checkedSeries(values);
  const weak = split(series, windowLength, firstPassPValue(maxPValue), minSegment);
  return merge(weak, series, maxPValue, minMagnitude, minSegment).map(({ index, stats }) => ({
    index,
    before: { mean: stats.meanBefore, n: stats.nBefore },
    after: { mean: stats.meanAfter, n: stats.nAfter },
    change: stats.meanBefore === 0 ? null : (stats.meanAfter - stats.meanBefore) / stats.meanBefore,
    pValue: stats.pValue,
  }));
}

function checkedSeries(values) {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    throw new TypeError(`detectChangePoints: values must be an array of numbers, got ${typeof values}`);
  }
  const bad = Array.prototype.findIndex.call(values, (v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad !== -1) {
    throw new TypeError(
      `detectChangePoints: values[${bad}] is ${values[bad]}; pass finite numbers only (drop missing runs first)`,
    );
  }
  return Float64Array.from(values);
}

function checkedOptions(options) {
  const merged = { ...CHANGE_POINT_DEFAULTS, ...options };
  if (!Number.isInteger(merged.windowLength) || merged.windowLength < 2) {
    throw new RangeError(`detectChangePoints: windowLength must be an integer >= 2, got ${merged.windowLength}`);
  }
  if (!(merged.maxPValue > 0 && merged.maxPValue <= 1)) {
    throw new RangeError(`detectChangePoints: maxPValue must be in (0, 1], got ${merged.maxPValue}`);
  }
  if (!Number.isInteger(merged.minSegment) || merged.minSegment < 1 || 2 * merged.minSegment > merged.windowLength) {
    throw new RangeError(
      `detectChangePoints: minSegment must be an integer from 1 to windowLength / 2, got ${merged.minSegment}`,
    );
  }
  if (!(merged.minMagnitude >= 0)) {
    throw new RangeError(`detectChangePoints: minMagnitude must be >= 0, got ${merged.minMagnitude}`);
  }
  return merged;
}

// Otava's relaxed level for the split step.
function firstPassPValue(p) {
  if (p < 0.05) return p * 10;
  return p < 0.5 ? p * 2 : p;
}

// ---- split ------------------------------------------------------------------------------------

function split(series, windowLength, maxPValue, minSegment) {
  const step = Math.floor(windowLength / 2);
  const found = new Set();
  let start = 0;
  while (start < series.length) {
    const end = Math.min(start + windowLength, series.length);
    const inWindow = eDivisive(series.subarray(start, end), maxPValue, minSegment).map((i) => i + start);
    for (const i of inWindow) found.add(i);
    start = Math.max(inWindow.length ? inWindow[inWindow.length - 1] : 0, start + step);
  }
  const indexes = [...found].sort((a, b) => a - b);
  return indexes.map((index, k) => ({
    index,
    stats: segmentTest(series, indexes[k - 1] ?? 0, index, indexes[k + 1] ?? series.length),
  }));
}

// Hierarchical E-Divisive inside one window: split the piece with the largest Q-hat while the t
// test of that split is significant. Returns the sorted split indexes (first index of the right side).
function eDivisive(window, maxPValue, minSegment) {
  const energy = pairDistancePrefix(window);
  const cuts = [];
  for (;;) {
    const bounds = [0, ...cuts, window.length];
    let best = null;
    for (let k = 0; k + 1 < bounds.length; k++) {
      const candidate = bestSplit(energy, bounds[k], bounds[k + 1], minSegment);
      if (candidate !== null && (best === null || candidate.qhat > best.qhat))
        best = { ...candidate, from: bounds[k], to: bounds[k + 1] };
    }
    if (best === null) break;
    if (segmentTest(window, best.from, best.tau, best.to).pValue > maxPValue) break;
    cuts.push(best.tau);
    cuts.sort((a, b) => a - b);
  }
  return cuts;
}

// 2-D prefix sums of |x_i - x_j| over the window, so that any block of distances sums in O(1).
function pairDistancePrefix(x) {
  const n = x.length;
  const size = n + 1;
  const prefix = new Float64Array(size * size);
  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let j = 0; j < n; j++) {
      row += Math.abs(x[i] - x[j]);
      prefix[(i + 1) * size + j + 1] = prefix[i * size + j + 1] + row;
    }
  }
  const block = (r0, r1, c0, c1) =>
    prefix[r1 * size + c1] - prefix[r0 * size + c1] - prefix[r1 * size + c0] + prefix[r0 * size + c0];
  return { block };
}

// Q-hat(X, Y) of Matteson & James for X = x[s, tau), Y = x[tau, kappa), maximised over
// s < tau < kappa <= e (the piece is x[s, e)) with both sides at least minSegment long; ties
// keep the smallest tau, then kappa, as numpy's argmax. null when the piece is too short.
function bestSplit({ block }, s, e, minSegment) {
  let best = null;
  for (let tau = s + minSegment; tau + minSegment <= e; tau++) {
    const n = tau - s;
    const withinX = block(s, tau, s, tau) / 2;
    for (let kappa = tau + minSegment; kappa <= e; kappa++) {
      const m = kappa - tau;
      const cross = block(s, tau, tau, kappa);
      const withinY = block(tau, kappa, tau, kappa) / 2;
      const qhat =
        (2 / (m + n)) * cross -
        (n > 1 ? ((2 * m) / ((m + n) * (n - 1))) * withinX : 0) -
        (m > 1 ? ((2 * n) / ((m + n) * (m - 1))) * withinY : 0);
      if (best === null || qhat > best.qhat) best = { tau, qhat };
    }
  }
  return best;
}

// ---- merge ------------------------------------------------------------------------------------

function merge(weak, series, maxPValue, minMagnitude, minSegment) {
  const points = weak.slice();
  const shortest = ({ stats }) => Math.min(stats.nBefore, stats.nAfter);
  while (points.length) {
    // Points of overlapping windows can cut a segment shorter than minSegment: those go first.
    let weakest = argBest(points, (a, b) => shortest(a) < shortest(b));
    if (shortest(points[weakest]) >= minSegment) {
      weakest = argBest(points, (a, b) => a.stats.pValue > b.stats.pValue);
      if (points[weakest].stats.pValue < maxPValue) {
        weakest = argBest(points, (a, b) => magnitude(a.stats) < magnitude(b.stats));
        if (magnitude(points[weakest].stats) > minMagnitude) return points;
      }
    }
    points.splice(weakest, 1);
    for (const k of [weakest - 1, weakest]) {
      if (k < 0 || k >= points.length) continue;
      const from = points[k - 1]?.index ?? 0;
      const to = points[k + 1]?.index ?? series.length;
      points[k] = { index: points[k].index, stats: segmentTest(series, from, points[k].index, to) };
    }
  }
  return points;
}

// Index of the first element that no later element beats.
function argBest(items, beats) {
  let best = 0;
  for (let i = 1; i < items.length; i++) if (beats(items[i], items[best])) best = i;
  return best;
}

// Otava's change_magnitude: the larger relative change, forwards or backwards (0 when a mean is 0).
function magnitude({ meanBefore, meanAfter }) {
  const forward = meanBefore === 0 ? 0 : Math.abs(meanAfter / meanBefore - 1);
  const backward = meanAfter === 0 ? 0 : Math.abs(meanBefore / meanAfter - 1);
  return Math.max(forward, backward);
}

// ---- Student's t test of x[from, at) against x[at, to) ----------------------------------------

function segmentTest(x, from, at, to) {
  const left = moments(x, from, at);
  const right = moments(x, at, to);
  const stats = { meanBefore: left.mean, nBefore: left.n, meanAfter: right.mean, nAfter: right.n, pValue: 1 };
  const df = left.n + right.n - 2;
  if (df <= 0) return stats; // two points cannot show a significant difference
  const pooled = (left.squares + right.squares) / df;
  const standardError = Math.sqrt(pooled * (1 / left.n + 1 / right.n));
  const difference = right.mean - left.mean;
  if (standardError === 0) return { ...stats, pValue: difference === 0 ? 1 : 0 };
  return { ...stats, pValue: studentTwoSidedPValue(difference / standardError, df) };
}

// Mean and sum of squared deviations (two passes: exact for constant runs).
function moments(x, from, to) {
  const n = to - from;
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = from; i < to; i++) squares += (x[i] - mean) ** 2;
  return { n, mean, squares };
}

// P(|T| >= |t|) for T ~ t(df) = I_{df/(df+t^2)}(df/2, 1/2), the regularized incomplete beta.
export function studentTwoSidedPValue(t, df) {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? 1 : 0;
  return Math.min(1, regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5));
}

// I_x(a, b) by its continued fraction (Numerical Recipes 3rd ed., 6.4), using the symmetry
// I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
function regularizedIncompleteBeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x, a, b) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const coefficient of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + coefficient * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + coefficient / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

// ln Γ(z) for z > 0 (Lanczos approximation, g = 7, n = 9; relative error below 1e-15).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

function logGamma(z) {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const shifted = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (shifted + i);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}
