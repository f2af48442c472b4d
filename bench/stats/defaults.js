// The defaults of comparisons, in one place (after tachometer's defaults.ts): those of the
// statistics, for any two samples, and those of `npm run compare` and `calibrate`, which
// their option tables use and --help shows (bench/cli/compare-command.js). Each metric's
// verdict band (threshold, minimumEffect) is the metric's own; `threshold` here is the band
// of a caller that names none.
export const DEFAULTS = Object.freeze({
  direction: 'bigger', // 'bigger' is better (req/s) or 'smaller' is better (latency)
  threshold: 0.05, // the band ±threshold
  // minimumEffect (<= threshold, default: the threshold): an interval wholly beyond it is a regression or improvement
  // equivalenceMargin (<= threshold, default: the threshold): no change needs the equivalence interval inside ±it
  failThreshold: 0.1, // failsGate: a regression must lie wholly beyond this to fail the build
  confidence: 0.95,
  // the level of the interval that calls "no change" (an equivalence claim, verdict.js); default: the confidence
  equivalenceConfidence: null,
  minSamples: 3, // rounds per side below which a comparison is inconclusive
  // which interval decides, see METHOD.md: 'welch' (delta method, t multiplier), 'bootstrap' (percentile), both for
  // two independent samples, the only kind a caller with unpaired samples has; or 'paired' (COMPARE_DEFAULTS)
  interval: 'welch',
  resamples: 10000, // bootstrap only
  seed: 1, // bootstrap only: fixed, so a verdict can be recomputed from the raw samples
});

// What `npm run compare` does unless told otherwise. Its rounds come in pairs, one run per side,
// so the paired interval decides; a change needs 6 rounds (its 95 % interval), and 5 rounds before
// any stop keeps an early lucky streak from deciding. "No change" is Schuirmann's equivalence test
// at the same 5 % error per edge, the 90 % interval inside the band, which 5 rounds can give.
export const COMPARE_DEFAULTS = Object.freeze({
  interval: 'paired',
  equivalenceConfidence: 0.9,
  // "No change" claims less than this share of the band (±3.75 % of ±5 %; never less than the minimum effect), so
  // that true 3 % slowdowns are not passed as no change: the whole band let 30 % of them through; a narrower
  // margin makes a suite's A/A longer still (5 min 13 s at this one; METHOD.md sections 3 and 6).
  noChangeShare: 0.75,
  failThreshold: DEFAULTS.failThreshold,
  minRounds: 5, // adaptive stopping (stopping.js): never stop on a resolved verdict before this many rounds
  maxRounds: 60,
  budgetSeconds: 180, // per benchmark; then the verdict stays inconclusive
  // A round's spread comes from its fresh server processes, not its length: duet A/As gave a per-round SD of 2.8 %
  // at 2 s after 0.5 s warm-up against 3.0 % at 3 s after 1 s, in a third less time (METHOD.md, section 6).
  roundSeconds: 2, // measured seconds of one side's run in a round
  warmupSeconds: 0.5, // its discarded warm-up
});
