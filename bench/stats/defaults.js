// Default settings of the comparison engine, in one place (after tachometer's defaults.ts).
export const DEFAULTS = Object.freeze({
  direction: 'bigger', // 'bigger' is better (req/s) or 'smaller' is better (latency)
  threshold: 0.05, // the band ±threshold: an interval wholly inside it is "no change"
  // minimumEffect (<= threshold, default: the threshold): an interval wholly beyond it is a regression or improvement
  failThreshold: 0.1, // failsGate: a regression must lie wholly beyond this to fail the build
  confidence: 0.95,
  minSamples: 3, // rounds per side below which a comparison is inconclusive
  interval: 'welch', // which interval decides: 'welch' (delta method, t multiplier) or 'bootstrap' (percentile); see METHOD.md
  resamples: 10000, // bootstrap only
  seed: 1, // bootstrap only: fixed, so a verdict can be recomputed from the raw samples
  minRounds: 3, // adaptive stopping: never stop on a resolved verdict before this many rounds
});
