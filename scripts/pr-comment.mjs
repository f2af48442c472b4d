#!/usr/bin/env node
// The pull-request comment of the benchmark workflows (docs/github-actions.md), in two steps
// (the measuring job's pr.json comes from scripts/approved-commit.mjs):
//   find         in bench-comment: is there a benchmark artifact in the finished run, and is it
//                small enough? Sets the step outputs found=true|false and artifact-id
//   post DIR     in bench-comment, once the artifact is downloaded into DIR (outside the
//                workspace): validates it, checks its pull request and commit against the
//                dispatched run, and creates or updates the one sticky comment
// Context comes from GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_SERVER_URL, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Exit 0 done (or nothing to do),
// 1 artifact refused or API failure, 2 bad command line or context.
import { resolve } from 'node:path';
import { runCommand } from '../bench/cli/run.js';
import { githubApi } from '../bench/github/api.js';
import { findArtifact, readArtifact, verifyPullRequest } from '../bench/github/artifact.js';
import { renderComment, upsertComment } from '../bench/github/comment.js';
import { apiContext, appendSummary, readEvent, setOutputs, workflowRunOfEvent } from '../bench/github/context.js';

const STEPS = ['find', 'post'];
const PR_COMMENT_COMMAND = {
  name: 'pr-comment',
  invocation: 'node scripts/pr-comment.mjs',
  synopsis: '(find | post DIR)',
  summary:
    'The pull-request comment of the benchmark workflows (docs/github-actions.md). Exit 1 when the artifact\nis refused or the API fails, 2 on a bad command line or context.',
  options: {},
  positionals: { value: 'STEP [DIR]', min: 1, max: 2, missing: `name the step: ${STEPS.join(', ')}` },
  check: (values, [step, dir]) => {
    if (step === undefined) return [];
    if (!STEPS.includes(step)) return [`unknown step "${step}": choose ${STEPS.join(', ')}`];
    if (step === 'find') return dir === undefined ? [] : ['find takes no directory'];
    return dir ? [] : [`${step} needs the artifact directory`];
  },
};

async function post(dir) {
  const event = readEvent();
  const run = workflowRunOfEvent(event);
  const context = apiContext();
  const api = githubApi(context);
  const artifact = readArtifact(dir);
  const defaultBranch = event.repository?.default_branch;
  const { number, currentHeadSha } = await verifyPullRequest({
    pr: artifact.pr,
    run,
    api,
    repository: context.repository,
    defaultBranch,
  });
  const runUrl = `${context.serverUrl}/${context.repository}/actions/runs/${run.id}`;
  const body = renderComment(artifact, { runUrl, workflow: run.name ?? 'benchmark', currentHeadSha });
  const { action, id } = await upsertComment({ api, repository: context.repository, number, body });
  const line = `${action} the benchmark comment ${id} on pull request #${number} (${artifact.comparisons.length} comparison(s))`;
  console.log(line);
  appendSummary(line);
}

await runCommand(PR_COMMENT_COMMAND, async ({ positionals: [step, dirArg] }) => {
  const dir = dirArg && resolve(dirArg);
  if (step === 'find') {
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
