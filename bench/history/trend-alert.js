// Whether a bench-main run alerts on what it publishes (github-action-benchmark compares each
// point with the newest entry of another commit, every time it runs). A commit new to the trend
// alerts. A nightly or manual run on a commit already in it would repeat the push run's alert every
// night, so it stays quiet. But a re-run of a failed push run (GITHUB_RUN_ATTEMPT > 1) finds the
// commit in the trend because its own first attempt published it: quiet, it would turn a red check
// green without the regression gone, so it alerts again.

/**
 * @param {{measured: boolean, event?: string, attempt?: number}} run  measured: every published
 *   suite holds an entry of this commit; event, attempt: GITHUB_EVENT_NAME, GITHUB_RUN_ATTEMPT
 * @returns {{alert: boolean, why: string}}
 */
export function trendAlert({ measured, event, attempt = 1 }) {
  if (!measured) return { alert: true, why: 'is new to the trend: alerts on' };
  if (attempt > 1 && event === 'push')
    return {
      alert: true,
      why: `is in the trend from this run's attempt ${attempt - 1}: this re-run alerts again, so that the check stays red until the regression is gone`,
    };
  return { alert: false, why: 'is already in the trend: this run adds its values without alerting again' };
}

// The run as the GitHub Actions environment describes it.
export const runFromEnvironment = (env) => ({
  event: env.GITHUB_EVENT_NAME,
  attempt: Number.parseInt(env.GITHUB_RUN_ATTEMPT ?? '1', 10) || 1,
});
