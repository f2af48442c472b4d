// The verdict of an A/B comparison: where the confidence interval of the relative change lies against a
// threshold band ("horizons", after tachometer), read in the metric's better direction.
import { DEFAULTS } from './defaults.js';
import { coefficientOfVariation, mean, standardDeviation } from './descriptive.js';
import { bootstrapInterval, deltaMethodInterval, relativeChange } from './relative-difference.js';
import { pairedRatio } from './paired-ratio.js';
import { twoSidedCriticalValue } from './t-distribution.js';
import { welchTTest } from './welch.js';

// How each interval gets its interval and p-value from the two samples; the paired one also
// its own change (the unpaired ones keep the ratio of the means that compareSamples computes).
// The equivalence interval is computed again only at another level (a bootstrap's resamples are not cheap).
const unpaired = (interval) => (base, head, settings) => {
  const ci = interval(base, head, settings);
  const { confidence, equivalenceConfidence } = settings;
  return {
    ci,
    equivalenceCi:
      equivalenceConfidence === confidence
        ? ci
        : interval(base, head, { ...settings, confidence: equivalenceConfidence }),
    pValue: welchTTest(base, head).pValue,
  };
};
const ESTIMATORS = {
  welch: unpaired(deltaMethodInterval),
  bootstrap: unpaired(bootstrapInterval),
  paired: pairedRatio,
};
export const INTERVAL_KINDS = Object.keys(ESTIMATORS);

// The verdicts of a comparison, named once: what classifyInterval answers, what comparison.json
// may hold, what reports show. A small regression (improvement) is a change whose interval lies
// wholly on one side of zero but not wholly beyond the minimum effect: certain, and smaller than
// the band (METHOD.md, section 3).
export const VERDICTS = Object.freeze({
  regression: 'regression',
  smallRegression: 'small regression',
  improvement: 'improvement',
  smallImprovement: 'small improvement',
  noChange: 'no change',
  inconclusive: 'inconclusive',
});
export const VERDICT_NAMES = Object.values(VERDICTS);

// Verdicts whose interval excludes zero: certain changes, of a size beyond the minimum effect or not.
export const SLOWER = Object.freeze([VERDICTS.regression, VERDICTS.smallRegression]);
export const FASTER = Object.freeze([VERDICTS.improvement, VERDICTS.smallImprovement]);
export const isSlower = (verdict) => SLOWER.includes(verdict);
export const isFaster = (verdict) => FASTER.includes(verdict);
// A change at least the minimum effect (regression, improvement), as against a small one.
export const isFullChange = (verdict) => verdict === VERDICTS.regression || verdict === VERDICTS.improvement;
export const isSmallChange = (verdict) => verdict === VERDICTS.smallRegression || verdict === VERDICTS.smallImprovement;

// An interval of relative change turned so that positive means better: latency intervals are negated.
export const towardsBetter = ([low, high], direction) => (direction === 'bigger' ? [low, high] : [-high, -low]);

// Tachometer-style horizons, read in this order (METHOD.md, section 3), with strict comparisons (an interval
// that touches an edge has not cleared it):
// - wholly beyond ±minimumEffect: a regression or improvement;
// - wholly on one side of zero and wholly inside the band ±threshold: a small regression or improvement;
// - on one side of zero but reaching past the band: inconclusive (the direction is certain, the size is not);
// - no change when the shown interval (below) contains zero, the equivalence interval lies wholly inside
//   ±equivalenceMargin (the band unless told), and the estimate `change` lies inside ±minimumEffect. An estimate
//   beyond the minimum effect makes a change likely, so the sampling goes on (inconclusive until then);
// - anything else: inconclusive.
// "No change" is an equivalence claim: Schuirmann's two one-sided tests exclude each edge of the margin at the
// confidence level, which is the two-sided interval at 2 × confidence - 1 (90 % for 95 %); so
// `equivalenceInterval` may be narrower than `interval`, which calls changes (it defaults to `interval`). A null
// `interval` (too few rounds for its level) excludes nothing: only "no change" can then be called, and the
// equivalence interval is the one shown with it. The shown interval must contain zero, so that "no change" is
// never shown with an interval that excludes zero.
// With a single pair of horizons (minimumEffect = threshold) a true change of exactly the threshold sits on the
// edge and is never called. `change` defaults to the equivalence interval's midpoint.
export function classifyInterval(
  interval,
  {
    direction,
    threshold,
    minimumEffect = threshold,
    change,
    equivalenceInterval = interval,
    equivalenceMargin = threshold,
  },
) {
  if (interval) {
    const [low, high] = towardsBetter(interval, direction);
    if (low > minimumEffect) return VERDICTS.improvement;
    if (high < -minimumEffect) return VERDICTS.regression;
    if (low > 0) return high < threshold ? VERDICTS.smallImprovement : VERDICTS.inconclusive;
    if (high < 0) return low > -threshold ? VERDICTS.smallRegression : VERDICTS.inconclusive;
  }
  if (!equivalenceInterval) return VERDICTS.inconclusive;
  const [low, high] = equivalenceInterval;
  // The interval shown with the verdict (the equivalence one when too few rounds give no other) contains zero.
  const [shownLow, shownHigh] = interval ?? equivalenceInterval;
  const equivalent = shownLow <= 0 && shownHigh >= 0 && low > -equivalenceMargin && high < equivalenceMargin;
  const estimate = change ?? (low + high) / 2;
  return equivalent && Math.abs(estimate) < minimumEffect ? VERDICTS.noChange : VERDICTS.inconclusive;
}

function checkSample(name, values) {
  if (!Array.isArray(values) || !values.every(Number.isFinite))
    throw new TypeError(`${name} samples must be an array of finite numbers`);
}

function checkSettings({
  direction,
  threshold,
  minimumEffect,
  equivalenceMargin,
  confidence,
  equivalenceConfidence,
  minSamples,
  interval,
}) {
  if (!['bigger', 'smaller'].includes(direction))
    throw new RangeError(`direction must be "bigger" or "smaller", not ${direction}`);
  if (!(threshold >= 0 && Number.isFinite(threshold)))
    throw new RangeError(`threshold must be a finite number >= 0, not ${threshold}`);
  if (!(minimumEffect >= 0 && minimumEffect <= threshold))
    throw new RangeError(`minimumEffect must lie between 0 and the threshold ${threshold}, not ${minimumEffect}`);
  if (!(equivalenceMargin >= 0 && equivalenceMargin <= threshold))
    throw new RangeError(
      `equivalenceMargin must lie between 0 and the threshold ${threshold}, not ${equivalenceMargin}`,
    );
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must lie strictly between 0 and 1, not ${confidence}`);
  if (!(equivalenceConfidence > 0 && equivalenceConfidence <= confidence))
    throw new RangeError(
      `equivalenceConfidence must lie above 0 and at most the confidence ${confidence}, not ${equivalenceConfidence}`,
    );
  if (!(Number.isInteger(minSamples) && minSamples >= 2))
    throw new RangeError(`minSamples must be an integer >= 2 (a variance needs two), not ${minSamples}`);
  if (!(interval in ESTIMATORS))
    throw new RangeError(`interval must be one of ${INTERVAL_KINDS.join(', ')}, not ${interval}`);
}

// Compares head against base samples (one value per round and side) and returns the verdict with its evidence.
export function compareSamples(base, head, options = {}) {
  const settings = { ...DEFAULTS, ...options };
  settings.minimumEffect ??= settings.threshold;
  settings.equivalenceConfidence ??= settings.confidence;
  settings.equivalenceMargin ??= settings.threshold;
  checkSample('base', base);
  checkSample('head', head);
  checkSettings(settings);
  const { direction, threshold, minimumEffect, minSamples } = settings;
  const n = { base: base.length, head: head.length };
  const means = { base: mean(base), head: mean(head) };
  if (means.base <= 0) throw new RangeError(`the base mean must be positive for a relative change, not ${means.base}`);
  const summary = {
    change: relativeChange(means.base, means.head),
    n,
    means,
    cv: { base: coefficientOfVariation(base), head: coefficientOfVariation(head) },
    direction,
    threshold,
    minimumEffect,
    interval: settings.interval,
    confidence: settings.confidence,
    equivalenceConfidence: settings.equivalenceConfidence,
    equivalenceMargin: settings.equivalenceMargin,
  };
  if (Math.min(n.base, n.head) < minSamples)
    return { verdict: VERDICTS.inconclusive, ci: null, pValue: null, ...summary };
  const estimated = ESTIMATORS[settings.interval](base, head, settings);
  return {
    ...summary,
    ...estimated,
    verdict:
      estimated.ci || estimated.equivalenceCi
        ? classifyInterval(estimated.ci, {
            ...settings,
            change: estimated.change ?? summary.change,
            equivalenceInterval: estimated.equivalenceCi,
          })
        : VERDICTS.inconclusive,
  };
}

// The interval a verdict is shown with: the one that calls changes, or, when the rounds were too few for its
// level (a "no change" from five paired rounds), the equivalence interval; with its level, or null for none.
export function shownInterval({ ci, equivalenceCi, confidence = DEFAULTS.confidence, equivalenceConfidence } = {}) {
  if (ci) return { interval: ci, level: confidence };
  return equivalenceCi ? { interval: equivalenceCi, level: equivalenceConfidence } : null;
}

// The CI gate: fails only on a slowdown (a regression, or a small one where the band is wider than the gate)
// whose whole interval lies beyond failThreshold in the bad direction.
export function failsGate(result, failThreshold = DEFAULTS.failThreshold) {
  return isSlower(result.verdict) && towardsBetter(result.ci, result.direction)[1] < -failThreshold;
}

// How far apart paired rounds are: the standard deviation of the rounds' log ratios head/base, about the relative
// spread of one round's change (a fraction); null with fewer than two rounds or a round that measured 0.
export function roundSpread(base, head) {
  if (base.length !== head.length || base.length < 2) return null;
  if (![...base, ...head].every((value) => value > 0)) return null;
  return standardDeviation(base.map((baseValue, index) => Math.log(head[index] / baseValue)));
}

// Whether rounds `spread` apart are too noisy for `rounds` of them to resolve anything: the interval of their mean
// change at `confidence` (a t interval, near enough the paired one) is wider than ±margin, so even a true "no
// change" could not have been shown. Then an inconclusive verdict is the machine's noise, not a close call.
export function tooNoisy({ spread, rounds, margin, confidence }) {
  if (!(spread > 0) || !(rounds >= 2)) return false;
  return (twoSidedCriticalValue(confidence, rounds - 1) * spread) / Math.sqrt(rounds) >= margin;
}
