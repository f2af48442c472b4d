// The GitHub-hosted mode's trust boundary (docs/github-actions.md, "Hosted mode"). bench-hosted
// runs on `pull_request`, so its definition is the one in the pull request's merge commit: a pull
// request can change it, as with any CI. The trusted workflow_run job (bench-hosted-report) posts the
// comment and sets the required status only for a run whose workflow file is, blob for blob, the
// default branch's; otherwise it leaves the status pending and says why. Its artifact stays
// hostile data (artifact.js): its pull request and commit are checked against the run and the API.
import { githubErrors } from '../core/errors.js';
import { printable } from '../core/text.js';

// The commit status a branch protection rule can require.
export const STATUS_CONTEXT = 'perfgate';
const WORKFLOW_PATH = /^\.github\/workflows\/[\w.-]+\.ya?ml$/;
const SHA = /^[0-9a-f]{40}$/;

async function blobOf({ api, repository, path, ref }) {
  const entry = await api.request(
    'GET',
    `/repos/${repository}/contents/${path}?ref=${encodeURIComponent(ref)}`,
    undefined,
    { allow: [404] },
  );
  return typeof entry?.sha === 'string' ? entry.sha : null;
}

/**
 * Whether a finished pull_request run ran the default branch's definition of its workflow: the
 * run's workflow file (workflow_run.path) at the run's head commit is the same blob as on the
 * default branch. { trusted: true } or { trusted: false, reason }. A pull request that changes the
 * file, or predates a change of it on the default branch, is not trusted until it matches.
 */
export async function runDefinitionCheck({ api, repository, run, defaultBranch }) {
  const path = String(run.path ?? '');
  if (!WORKFLOW_PATH.test(path))
    return { trusted: false, reason: `the run names no workflow file of .github/workflows (${printable(path, 100)})` };
  const [ours, theirs] = await Promise.all([
    blobOf({ api, repository, path, ref: defaultBranch }),
    blobOf({ api, repository, path, ref: run.head_sha }),
  ]);
  if (!ours) return { trusted: false, reason: `${path} is not on ${defaultBranch}` };
  if (theirs !== ours)
    return {
      trusted: false,
      reason: `the pull request's ${path} is not ${defaultBranch}'s (update the branch, or leave the workflow to a pull request of its own)`,
    };
  return { trusted: true };
}

// The artifact of a hosted run must name the run's pull request and head commit, and that commit
// must still be the pull request's head, into the default branch (the status goes on it).
export async function verifyHostedPullRequest({ pr, run, api, repository, defaultBranch }) {
  if (run.event !== 'pull_request')
    throw githubErrors.hostileArtifact(`run ${run.id} is a ${printable(run.event)} run, not a hosted pull_request run`);
  if (pr.headSha !== run.head_sha)
    throw githubErrors.hostileArtifact(`it names commit ${pr.headSha}, but the run measured ${run.head_sha}`);
  const pull = await api.request('GET', `/repos/${repository}/pulls/${pr.number}`, undefined, { allow: [404] });
  if (!pull)
    throw githubErrors.hostileArtifact(`it names pull request #${pr.number}, which ${repository} does not have`);
  if (pull.base?.ref !== defaultBranch)
    throw githubErrors.hostileArtifact(`pull request #${pr.number} does not target ${printable(defaultBranch)}`);
  if (pull.head?.sha !== run.head_sha)
    throw githubErrors.hostileArtifact(
      `pull request #${pr.number}'s head is ${printable(pull.head?.sha)}, not the run's ${run.head_sha}`,
    );
  return { number: pr.number, currentHeadSha: pull.head.sha };
}

// The required status of a validated artifact: failure when a comparison's gate failed, else success.
export function gateStatus({ comparisons }) {
  const failed = comparisons.filter(({ comparison }) => comparison.gate.failed).length;
  return failed
    ? { state: 'failure', description: `the gate failed in ${failed} of ${comparisons.length} comparison(s)` }
    : { state: 'success', description: `no regression beyond the gate (${comparisons.length} comparison(s))` };
}

export async function setStatus({ api, repository, sha, state, description, targetUrl }) {
  if (!SHA.test(sha ?? '')) throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no full head commit');
  await api.request('POST', `/repos/${repository}/statuses/${sha}`, {
    state,
    context: STATUS_CONTEXT,
    description: printable(description, 139),
    ...(targetUrl ? { target_url: targetUrl } : {}),
  });
}
