// Default settings of the comparison engine, in one place (after tachometer's defaults.ts).
export const DEFAULTS = Object.freeze({
  direction: 'bigger', // 'bigger' is better (req/s) or 'smaller' is better (latency)
  threshold: 0.05, // the band ±threshold: an interval wholly inside it is "no change"
  // minimumEffect (<= threshold, default: the threshold): an interval wholly beyond it is a regression or improvement
  failThreshold: 0.1, // failsGate: a regression must lie wholly beyond this to fail the build
  confidence: 0.95,
  minSamples: 3, // rounds per side below which a comparison is inconclusive
  // which interval decides, see METHOD.md: 'welch' (delta method, t multiplier), 'bootstrap' (percentile), both for
  // two independent samples, or 'paired' (signed-rank interval of per-round ratios; npm run compare's default)
  interval: 'welch',
  resamples: 10000, // bootstrap only
  seed: 1, // bootstrap only: fixed, so a verdict can be recomputed from the raw samples
  minRounds: 3, // adaptive stopping: never stop on a resolved verdict before this many rounds
});
