// Suite-level error control (bench/stats/METHOD.md, section 5b): a benchmark whose run calls a certain
// change (slower: a regression or a small one; faster: an improvement or a small one) is measured once more,
// in a fresh run of its own with the same settings, and that second run's verdict stands. The first run
// stopped as soon as it looked changed, so its interval is the one the stopping selected; the second is
// not. On the same code both must call a change by chance, which keeps a harmless pull request's many
// benchmarks green and an upgrade's claimed gain true; a true change is called again. A run that finds no
// change costs nothing more, so a suite's time is spent only where something was found.
// The second run dismisses the first run's change only by an equivalence within the minimum effect (the
// smallest change called) at 90 % on each side (its 80 % interval), not merely within the band: a true change a
// little above the minimum effect, found once, would otherwise be dismissed by the second run's first lucky
// rounds (resampled from real rounds, METHOD.md section 5b).
import { isFaster, isSlower, VERDICTS } from '../stats/index.js';

// Which way a verdict says the head moved, or null when it names no certain change.
export const changeDirection = (verdict) => (isSlower(verdict) ? 'slower' : isFaster(verdict) ? 'faster' : null);

export const needsConfirmation = (measured) => changeDirection(measured.verdict.verdict) !== null;

// How the confirming run judges (bench/comparison/rounds.js's compareInterleaved options), beside the first run's.
export const CONFIRMING_RUN = Object.freeze({ noChangeWithin: 'minimumEffect', equivalenceConfidence: 0.8 });

// What is kept of the first run when a second one decides: its verdicts and rounds, for the audit.
const firstRunOf = ({ verdict, verdicts, samples, rounds, elapsedMs, stoppedBy }) => ({
  verdict,
  verdicts,
  samples,
  rounds,
  elapsedMs,
  stoppedBy,
});

/**
 * @param {(attempt: 1|2, judging: object) => Promise<{verdict: object, verdicts: object, samples: object, rounds: number,
 *   elapsedMs: number, stoppedBy: string}>} measure  one run of the benchmark (bench/comparison/rounds.js's
 *   compareInterleaved), judging: options of compareInterleaved for this run (CONFIRMING_RUN for the second)
 * @param {{confirm?: boolean, onConfirm?: (first: object) => void}} options  confirm: false keeps the first run
 * @returns the run whose verdict stands; after a confirmation with `confirmation: {repeated, first}`, and
 *   `opposite` (the second run's own verdict) when the two runs called changes of opposite directions: then neither
 *   stands and the verdict is inconclusive, since a second run that could turn a false improvement into an
 *   unconfirmed slowdown (or back) would undo what the confirmation is for
 */
export async function measureConfirmed(measure, { confirm = true, onConfirm = () => {} } = {}) {
  const first = await measure(1, {});
  if (!confirm || !needsConfirmation(first)) return first;
  onConfirm(first);
  const second = await measure(2, CONFIRMING_RUN);
  const direction = changeDirection(second.verdict.verdict);
  const repeated = direction === changeDirection(first.verdict.verdict);
  const confirmation = { repeated, first: firstRunOf(first) };
  if (repeated || direction === null) return { ...second, confirmation };
  return {
    ...second,
    verdict: { ...second.verdict, verdict: VERDICTS.inconclusive, resolved: false },
    confirmation: { ...confirmation, opposite: second.verdict.verdict },
  };
}

// The seconds from the start of a benchmark's first run to its verdict.
export const secondsToVerdict = (benchmark) =>
  ((benchmark.elapsedMs ?? 0) + (benchmark.confirmation?.first.elapsedMs ?? 0)) / 1000;
