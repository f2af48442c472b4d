// The verdict of an A/B comparison: where the confidence interval of the relative change lies against a
// threshold band ("horizons", after tachometer), read in the metric's better direction.
import { DEFAULTS } from './defaults.js';
import { coefficientOfVariation, mean } from './descriptive.js';
import { bootstrapInterval, deltaMethodInterval, relativeChange } from './relative-difference.js';
import { pairedRatio } from './paired-ratio.js';
import { welchTTest } from './welch.js';

// How each interval gets its interval and p-value from the two samples; the paired one also
// its own change (the unpaired ones keep the ratio of the means that compareSamples computes).
const unpaired = (interval) => (base, head, settings) => ({
  ci: interval(base, head, settings),
  pValue: welchTTest(base, head).pValue,
});
const ESTIMATORS = {
  welch: unpaired(deltaMethodInterval),
  bootstrap: unpaired(bootstrapInterval),
  paired: pairedRatio,
};
export const INTERVAL_KINDS = Object.keys(ESTIMATORS);

// The verdicts of a comparison, named once: what classifyInterval answers, what comparison.json
// may hold, what reports show.
export const VERDICTS = Object.freeze({
  regression: 'regression',
  improvement: 'improvement',
  noChange: 'no change',
  inconclusive: 'inconclusive',
});
export const VERDICT_NAMES = Object.values(VERDICTS);

// An interval of relative change turned so that positive means better: latency intervals are negated.
export const towardsBetter = ([low, high], direction) => (direction === 'bigger' ? [low, high] : [-high, -low]);

// Tachometer-style horizons, two pairs of them: a change is called when the whole interval lies beyond
// ±minimumEffect; "no change" when it lies inside the band ±threshold. With a single pair (minimumEffect =
// threshold) a true change of exactly the threshold sits on the edge and is never called (METHOD.md, section 3).
export function classifyInterval(interval, { direction, threshold, minimumEffect = threshold }) {
  const [low, high] = towardsBetter(interval, direction);
  if (low > minimumEffect) return VERDICTS.improvement;
  if (high < -minimumEffect) return VERDICTS.regression;
  if (low > -threshold && high < threshold) return VERDICTS.noChange;
  return VERDICTS.inconclusive;
}

function checkSample(name, values) {
  if (!Array.isArray(values) || !values.every(Number.isFinite))
    throw new TypeError(`${name} samples must be an array of finite numbers`);
}

function checkSettings({ direction, threshold, minimumEffect, confidence, minSamples, interval }) {
  if (!['bigger', 'smaller'].includes(direction))
    throw new RangeError(`direction must be "bigger" or "smaller", not ${direction}`);
  if (!(threshold >= 0 && Number.isFinite(threshold)))
    throw new RangeError(`threshold must be a finite number >= 0, not ${threshold}`);
  if (!(minimumEffect >= 0 && minimumEffect <= threshold))
    throw new RangeError(`minimumEffect must lie between 0 and the threshold ${threshold}, not ${minimumEffect}`);
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must lie strictly between 0 and 1, not ${confidence}`);
  if (!(Number.isInteger(minSamples) && minSamples >= 2))
    throw new RangeError(`minSamples must be an integer >= 2 (a variance needs two), not ${minSamples}`);
  if (!(interval in ESTIMATORS))
    throw new RangeError(`interval must be one of ${INTERVAL_KINDS.join(', ')}, not ${interval}`);
}

// Compares head against base samples (one value per round and side) and returns the verdict with its evidence.
export function compareSamples(base, head, options = {}) {
  const settings = { ...DEFAULTS, ...options };
  settings.minimumEffect ??= settings.threshold;
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
  };
  if (Math.min(n.base, n.head) < minSamples)
    return { verdict: VERDICTS.inconclusive, ci: null, pValue: null, ...summary };
  const estimated = ESTIMATORS[settings.interval](base, head, settings);
  return {
    ...summary,
    ...estimated,
    verdict: estimated.ci ? classifyInterval(estimated.ci, settings) : VERDICTS.inconclusive,
  };
}

// The CI gate: fails only on a regression whose whole interval lies beyond failThreshold in the bad direction.
export function failsGate(result, failThreshold = DEFAULTS.failThreshold) {
  return result.verdict === VERDICTS.regression && towardsBetter(result.ci, result.direction)[1] < -failThreshold;
}
