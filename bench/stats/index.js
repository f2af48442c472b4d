// The statistics and verdict engine of perfgate's A/B comparison: pure functions, no processes, no I/O.
export { coefficientOfVariation, mean, median, quantile, standardDeviation, variance } from './descriptive.js';
export { welchTTest } from './welch.js';
export { bootstrapInterval, deltaMethodInterval, relativeChange } from './relative-difference.js';
export { seededRandom } from './prng.js';
export { COMPARE_DEFAULTS, DEFAULTS } from './defaults.js';
export {
  classifyInterval,
  compareSamples,
  FASTER,
  failsGate,
  INTERVAL_KINDS,
  isFaster,
  isFullChange,
  isSlower,
  isSmallChange,
  roundSpread,
  shownInterval,
  SLOWER,
  tooNoisy,
  towardsBetter,
  VERDICT_NAMES,
  VERDICTS,
} from './verdict.js';
export { isResolved, shouldContinue, stopReason } from './stopping.js';
