#!/usr/bin/env node
// First step of a dispatched self-hosted benchmark (bench-pr.yml, upgrade-gate.yml): the job runs
// the default branch's checkout (the harness); this fetches the one commit the request approved
// (the workflow_dispatch inputs pr and sha, read from the event file), finds its merge base with
// the default branch, and records both for the next steps and for bench-comment. In the hosted
// mode (bench-hosted.yml, on pull_request, the base branch's checkout as the harness) the commit
// is the pull request's head, from the event.
//   node scripts/approved-commit.mjs --out DIR
// Writes DIR/pr.json and the step outputs pr, head (the approved sha) and base (the merge base).
// GITHUB_TOKEN, when set, authenticates the fetch (private repositories) through the
// environment of that one git command, never in a URL, argument or file.
import { resolve } from 'node:path';
import { runCommand } from '../bench/cli/run.js';
import { githubErrors } from '../bench/core/errors.js';
import { gitResult } from '../bench/core/git.js';
import { writePullRequestRecord } from '../bench/github/artifact.js';
import { gitAuthEnv, pullRequestOfEvent, readEvent, requireEnv, setOutputs } from '../bench/github/context.js';
import { checkedInputs } from '../bench/github/trusted-trigger.js';

const APPROVED_COMMIT_COMMAND = {
  name: 'approved-commit',
  invocation: 'node scripts/approved-commit.mjs',
  synopsis: '--out DIR',
  summary:
    "Fetches the commit a benchmark request approved (the workflow_dispatch inputs pr and sha), or a pull_request\nevent's head, and its merge base. Exit 0 ready, 1 the commit cannot be fetched, 2 bad inputs or context.",
  options: { out: { type: 'string', value: 'DIR', help: 'where pr.json goes (for bench-comment)', required: true } },
};

// A dispatch's inputs, on the default branch only.
function approvedInputs(event, defaultBranch) {
  const inputs = checkedInputs(event.inputs ?? {});
  // The definition that runs must be the default branch's, whatever ref a dispatch named.
  const ref = requireEnv(process.env, 'GITHUB_REF');
  if (ref !== `refs/heads/${defaultBranch}`)
    throw githubErrors.badEvent(
      'GITHUB_REF',
      `is ${ref}: dispatch this workflow on ${defaultBranch} only, so that its definition is the reviewed one`,
    );
  return inputs;
}

// A pull request's head, in the hosted mode: its definition is checked by the trusted report job
// (bench/github/hosted-run.js), not here, since the pull request could change this step too.
function pullRequestHead(event, defaultBranch) {
  const { number, headSha } = pullRequestOfEvent(event);
  if (event.pull_request.base?.ref !== defaultBranch)
    throw githubErrors.badEvent('GITHUB_EVENT_PATH', `names a pull request into another branch than ${defaultBranch}`);
  return { number, sha: headSha };
}

await runCommand(APPROVED_COMMIT_COMMAND, ({ values }) => {
  const event = readEvent();
  const defaultBranch = event.repository?.default_branch;
  if (!defaultBranch) throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no repository.default_branch');
  const { number, sha } =
    process.env.GITHUB_EVENT_NAME === 'pull_request'
      ? pullRequestHead(event, defaultBranch)
      : approvedInputs(event, defaultBranch);

  const env = gitAuthEnv(process.env.GITHUB_TOKEN, process.env.GITHUB_SERVER_URL || undefined);
  const fetched = gitResult(
    [
      'fetch',
      '--quiet',
      '--no-tags',
      'origin',
      sha,
      `+refs/heads/${defaultBranch}:refs/remotes/origin/${defaultBranch}`,
    ],
    { env },
  );
  if (!fetched.ok)
    throw githubErrors.api('git fetch', `origin ${sha}`, 'an error', fetched.stderr.trim().split('\n').pop());
  const base = gitResult(['merge-base', `refs/remotes/origin/${defaultBranch}`, sha]);
  if (!base.ok) throw githubErrors.badEvent('the sha input', `(${sha}) shares no history with ${defaultBranch}`);
  writePullRequestRecord(resolve(values.out), { number, headSha: sha });
  const mergeBase = base.stdout.trim();
  setOutputs({ pr: number, head: sha, base: mergeBase });
  console.log(`pull request #${number}: measuring ${sha} against its merge base ${mergeBase} with ${defaultBranch}`);
});
