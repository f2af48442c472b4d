// Pure: binary search for the first commit that made a benchmark worse (asv's `find`,
// Chromium's Pinpoint). `commits` runs from the known-good commit to the known-bad one along
// first-parent history. Each step compares a candidate with the latest commit known to be
// good. An inconclusive step is measured once more with a larger budget (Pinpoint's UNKNOWN
// adds attempts); if it stays inconclusive, the search stops at the smallest range it can
// defend instead of guessing. A step is bad when the candidate is certainly slower than the good
// commit: a regression, or a small regression (smaller than the band, but certain), so that a
// small but certain slowdown is bisected too, and a step that holds part of a larger one is not
// taken for good (METHOD.md, section 4b).

import { isSlower, VERDICTS } from '../../stats/verdict.js';

const INCONCLUSIVE = VERDICTS.inconclusive;

/**
 * @param {{commits: string[], judge: (good: string, candidate: string, attempt: number) => Promise<{verdict: string}>,
 *   onStep?: (step: object) => void}} search  attempt is 1, or 2 for the larger-budget retry
 * @returns {Promise<{outcome: 'found'|'no step'|'unresolved', good: string, bad: string|null, steps: object[]}>}
 *   found: `bad` is the first bad commit, `good` its parent; unresolved: the step lies in (good, bad]
 */
export async function bisectCommits({ commits, judge, onStep = () => {} }) {
  if (commits.length < 2) throw new Error('bisect needs a good and a bad commit');
  const steps = [];
  const measure = async (good, candidate) => {
    let step;
    for (let attempt = 1; attempt <= 2; attempt++) {
      step = { good, candidate, attempt, ...(await judge(good, candidate, attempt)) };
      steps.push(step);
      onStep(step);
      if (step.verdict !== INCONCLUSIVE) break;
    }
    return step.verdict;
  };
  let low = 0;
  let high = commits.length - 1;
  const endpoints = await measure(commits[low], commits[high]);
  if (endpoints === INCONCLUSIVE) return { outcome: 'unresolved', good: commits[low], bad: commits[high], steps };
  if (!isSlower(endpoints)) return { outcome: 'no step', good: commits[low], bad: null, steps };
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const verdict = await measure(commits[low], commits[middle]);
    if (verdict === INCONCLUSIVE) return { outcome: 'unresolved', good: commits[low], bad: commits[high], steps };
    if (isSlower(verdict)) high = middle;
    else low = middle; // no change or an improvement, small or not: not the slowdown we look for
  }
  return { outcome: 'found', good: commits[low], bad: commits[high], steps };
}
