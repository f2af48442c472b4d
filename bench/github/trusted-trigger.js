// The trusted trigger of the self-hosted benchmarks (docs/self-hosted-runner.md). A request (a
// `/perfgate` comment on a pull request, or the run-bench label) is handled by a job on a
// GitHub-hosted runner that runs the default branch's workflow and never checks out pull-request
// code. It checks that the requester may write to the repository, records the head commit the
// request approves at that moment, and dispatches the self-hosted workflow on the default branch
// with that pull request and commit as inputs: whatever is pushed later, that commit is measured.
import { codeSpan as code } from '../text.js';
import { errors, githubErrors } from '../errors.js';

export const DEFAULT_COMMAND = '/perfgate';
export const DEFAULT_LABEL = 'run-bench';
// role_name of GET /repos/{owner}/{repo}/collaborators/{user}/permission that may approve.
const APPROVING_ROLES = ['admin', 'maintain', 'write'];
const SHA = /^[0-9a-f]{40}$/;

/**
 * What the event asks for, or null when it is not a benchmark request (any other comment or label).
 * A comment asks when its first word is the command, optionally followed by the commit it
 * approves (`/perfgate 1a2b3c4`); a label asks when it is the label.
 */
export function requestOfEvent(eventName, event, { command = DEFAULT_COMMAND, label = DEFAULT_LABEL } = {}) {
  if (eventName === 'issue_comment') {
    if (event?.action !== 'created' || !event.issue?.pull_request) return null;
    const [word, sha, ...rest] = String(event.comment?.body ?? '')
      .trim()
      .split(/\s+/);
    if (word !== command) return null;
    return {
      via: 'comment',
      number: event.issue.number,
      actor: event.comment.user?.login,
      commentId: event.comment.id,
      approvedSha: sha && !rest.length && /^[0-9a-f]{7,40}$/.test(sha) ? sha : null,
      malformed: Boolean(rest.length || (sha && !/^[0-9a-f]{7,40}$/.test(sha))),
    };
  }
  if (eventName === 'pull_request_target') {
    if (event?.action !== 'labeled' || event.label?.name !== label) return null;
    return {
      via: 'label',
      number: event.pull_request?.number,
      actor: event.sender?.login,
      labelledSha: event.pull_request?.head?.sha,
    };
  }
  return null;
}

async function permissionOf({ api, repository, actor }) {
  const answer = await api.request(
    'GET',
    `/repos/${repository}/collaborators/${encodeURIComponent(actor)}/permission`,
    undefined,
    { allow: [404] },
  );
  // role_name tells maintain and triage apart; the older `permission` folds them into write and read.
  return answer?.role_name ?? answer?.permission ?? 'none';
}

/**
 * Decides a request: { approved: true, number, sha, baseRef } or { approved: false, reason }.
 * The commit is the one the requester saw: the label event's head, or for a comment the head at
 * this moment (which must match the commit the comment names, if it names one).
 */
export async function decide({ api, repository, defaultBranch, request }) {
  if (!request.actor) return { approved: false, reason: 'the event names no requester' };
  if (request.malformed)
    return {
      approved: false,
      reason: `write \`${DEFAULT_COMMAND}\` alone, or followed by the commit to measure (\`${DEFAULT_COMMAND} 1a2b3c4\`)`,
    };
  const role = await permissionOf({ api, repository, actor: request.actor });
  if (!APPROVING_ROLES.includes(role)) {
    return {
      approved: false,
      reason: `@${request.actor} has ${role} access; only people with write, maintain or admin access can start a benchmark on the benchmark machine. A maintainer can ask for it with \`${DEFAULT_COMMAND}\`.`,
    };
  }
  const pull = await api.request('GET', `/repos/${repository}/pulls/${request.number}`, undefined, { allow: [404] });
  if (!pull) return { approved: false, reason: `pull request #${request.number} does not exist` };
  if (pull.state !== 'open') return { approved: false, reason: `pull request #${request.number} is ${pull.state}` };
  if (pull.base?.ref !== defaultBranch)
    return {
      approved: false,
      reason: `pull request #${request.number} targets ${code(pull.base?.ref ?? '')}, not ${code(defaultBranch)}: only pull requests into the default branch are benchmarked`,
    };
  const current = pull.head?.sha;
  const sha = request.via === 'label' ? request.labelledSha : current;
  if (!SHA.test(sha ?? ''))
    throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no head commit of the pull request');
  if (request.approvedSha && !sha.startsWith(request.approvedSha)) {
    return {
      approved: false,
      reason: `the comment approves ${request.approvedSha}, but the head of #${request.number} is now ${sha.slice(0, 12)}: look at the new commits, then ask again`,
    };
  }
  return { approved: true, number: request.number, sha, actor: request.actor, role };
}

// workflow_dispatch of the self-hosted workflow on the default branch (its definition, not the pull request's).
export async function dispatch({ api, repository, workflow, ref, number, sha }) {
  await api.request('POST', `/repos/${repository}/actions/workflows/${encodeURIComponent(workflow)}/dispatches`, {
    ref,
    inputs: { pr: String(number), sha },
  });
}

export async function reply({ api, repository, number, body }) {
  await api.request('POST', `/repos/${repository}/issues/${number}/comments`, { body });
}

// Inputs of the dispatched workflow, checked before anything uses them.
export function checkedInputs({ pr, sha }) {
  const problems = [];
  if (!/^[1-9]\d{0,9}$/.test(pr ?? '')) problems.push(`the pr input must be a pull request number (got "${pr ?? ''}")`);
  if (!SHA.test(sha ?? '')) problems.push(`the sha input must be a full 40-hex commit id (got "${sha ?? ''}")`);
  if (problems.length)
    throw errors.badArgs(
      problems,
      'the self-hosted benchmark workflows are started by the request workflow (docs/self-hosted-runner.md)',
    );
  return { number: Number(pr), sha };
}
