#!/usr/bin/env node
// The pull-request comment of the benchmark workflows (docs/github-actions.md), in steps
// (the measuring job's pr.json comes from scripts/approved-commit.mjs):
//   trust        in bench-hosted-report: did the finished pull_request run run the default
//                branch's definition of its workflow? Sets trusted=true|false; when not, the
//                required status stays pending and says why
//   find         in bench-comment and bench-hosted-report: is there a benchmark artifact in the
//                finished run, and is it small enough? Sets the step outputs found=true|false and artifact-id
//   post DIR     once the artifact is downloaded into DIR (outside the workspace): validates it,
//                checks its pull request and commit against the run (dispatched, or a trusted
//                pull_request run) and the API, and creates or updates the one sticky comment; for
//                a pull_request run also sets the required status (bench/github/hosted-run.js)
// Context comes from GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_SERVER_URL, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Exit 0 done (or nothing to do),
// 1 artifact refused or API failure, 2 bad command line or context.
import { resolve } from 'node:path';
import { runCommand } from '../bench/cli/run.js';
import { githubErrors } from '../bench/core/errors.js';
import { githubApi } from '../bench/github/api.js';
import { findArtifact, readArtifact, verifyPullRequest } from '../bench/github/artifact.js';
import { renderComment, upsertComment } from '../bench/github/comment.js';
import { apiContext, appendSummary, readEvent, setOutputs, workflowRunOfEvent } from '../bench/github/context.js';
import {
  gateStatus,
  runDefinitionCheck,
  setStatus,
  STATUS_CONTEXT,
  verifyHostedPullRequest,
} from '../bench/github/hosted-run.js';

const STEPS = ['trust', 'find', 'post'];
const PR_COMMENT_COMMAND = {
  name: 'pr-comment',
  invocation: 'node scripts/pr-comment.mjs',
  synopsis: '(trust | find | post DIR)',
  summary:
    'The pull-request comment of the benchmark workflows (docs/github-actions.md). Exit 1 when the artifact\nis refused or the API fails, 2 on a bad command line or context.',
  options: {},
  positionals: { value: 'STEP [DIR]', min: 1, max: 2, missing: `name the step: ${STEPS.join(', ')}` },
  check: (values, [step, dir]) => {
    if (step === undefined) return [];
    if (!STEPS.includes(step)) return [`unknown step "${step}": choose ${STEPS.join(', ')}`];
    if (step !== 'post') return dir === undefined ? [] : [`${step} takes no directory`];
    return dir ? [] : [`${step} needs the artifact directory`];
  },
};

// The finished run, the API and where the run is, for every step.
function runContext() {
  const event = readEvent();
  const run = workflowRunOfEvent(event);
  const context = apiContext();
  const defaultBranch = event.repository?.default_branch;
  if (!defaultBranch) throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no repository.default_branch');
  const runUrl = `${context.serverUrl}/${context.repository}/actions/runs/${run.id}`;
  return { run, api: githubApi(context), repository: context.repository, defaultBranch, runUrl };
}

// A hosted pull_request run is trusted only with the default branch's definition of its workflow.
async function trust() {
  const { run, api, repository, defaultBranch, runUrl } = runContext();
  const check = await runDefinitionCheck({ api, repository, run, defaultBranch });
  setOutputs({ trusted: check.trusted });
  if (check.trusted) return console.log(`run ${run.id} ran ${defaultBranch}'s ${run.path}`);
  await setStatus({
    api,
    repository,
    sha: run.head_sha,
    state: 'pending',
    description: `not trusted: ${check.reason}`,
    targetUrl: runUrl,
  });
  const line = `run ${run.id} is not trusted, the ${STATUS_CONTEXT} status stays pending: ${check.reason}`;
  console.log(line);
  appendSummary(line);
}

async function post(dir) {
  const { run, api, repository, defaultBranch, runUrl } = runContext();
  const hosted = run.event === 'pull_request';
  if (hosted) {
    const check = await runDefinitionCheck({ api, repository, run, defaultBranch });
    if (!check.trusted) throw githubErrors.hostileArtifact(`run ${run.id} is not trusted: ${check.reason}`);
  }
  let verified;
  let artifact;
  try {
    artifact = readArtifact(dir);
    const verify = hosted ? verifyHostedPullRequest : verifyPullRequest;
    verified = await verify({ pr: artifact.pr, run, api, repository, defaultBranch });
  } catch (error) {
    // A refused artifact never leaves a hosted check green: the status says it was refused.
    if (hosted && error.code === 'PG_UNTRUSTED_ARTIFACT')
      await setStatus({
        api,
        repository,
        sha: run.head_sha,
        state: 'error',
        description: 'the benchmark artifact was refused',
        targetUrl: runUrl,
      });
    throw error;
  }
  const { number, currentHeadSha } = verified;
  const body = renderComment(artifact, { runUrl, workflow: run.name ?? 'benchmark', currentHeadSha });
  const { action, id } = await upsertComment({ api, repository, number, body });
  const line = `${action} the benchmark comment ${id} on pull request #${number} (${artifact.comparisons.length} comparison(s))`;
  console.log(line);
  appendSummary(line);
  if (hosted) {
    const status = gateStatus(artifact);
    await setStatus({ api, repository, sha: run.head_sha, ...status, targetUrl: runUrl });
    console.log(`${STATUS_CONTEXT} status of ${run.head_sha}: ${status.state} (${status.description})`);
  }
}

await runCommand(PR_COMMENT_COMMAND, async ({ positionals: [step, dirArg] }) => {
  const dir = dirArg && resolve(dirArg);
  if (step === 'trust') {
    await trust();
  } else if (step === 'find') {
    const context = apiContext();
    const run = workflowRunOfEvent(readEvent());
    const artifact = await findArtifact({ api: githubApi(context), repository: context.repository, runId: run.id });
    setOutputs({ found: Boolean(artifact), 'artifact-id': artifact?.id ?? '' });
    console.log(
      artifact
        ? `run ${run.id} has benchmark artifact ${artifact.id} (${artifact.size_in_bytes} bytes)`
        : `run ${run.id} has no benchmark artifact: nothing to post`,
    );
  } else {
    await post(dir);
  }
});
