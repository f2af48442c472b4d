// Adaptive stopping for the interleaved runner: add rounds until the verdict is resolved or the budget is spent
// (tachometer's automatic.ts). Peeking after every round inflates false alarms: calibrate with A/A runs (METHOD.md).
import { COMPARE_DEFAULTS } from './defaults.js';
import { VERDICTS } from './verdict.js';

// A metric's result is resolved when its interval is clear of every horizon, i.e. it has a verdict other than
// inconclusive (an interval in the band whose estimate makes a change likely is inconclusive: classifyInterval).
// A benchmark's verdict over several metrics says itself whether it is resolved: a small change in one metric
// while another is still open is a verdict, but not yet a reason to stop (bench/comparison/rounds.js).
export const isResolved = (result) => result.resolved ?? result.verdict !== VERDICTS.inconclusive;

// Why to stop adding rounds, or null to add another. maxRounds and the time budget are hard limits that win over
// minRounds; the budget is spent when one more round, at the mean round duration so far, would end past it.
export function stopReason({
  result,
  elapsedMs,
  budgetMs,
  rounds,
  minRounds = COMPARE_DEFAULTS.minRounds,
  maxRounds = COMPARE_DEFAULTS.maxRounds,
}) {
  if (rounds >= maxRounds) return 'max-rounds';
  const nextRoundEndsAtMs = elapsedMs + (rounds > 0 ? elapsedMs / rounds : 0);
  if (nextRoundEndsAtMs > budgetMs) return 'budget';
  if (rounds < minRounds) return null;
  return isResolved(result) ? 'resolved' : null;
}

// True while the runner should add another round.
export const shouldContinue = (state) => stopReason(state) === null;
