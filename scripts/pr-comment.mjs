#!/usr/bin/env node
// The pull-request comment of the benchmark workflows (docs/github-actions.md), in three steps:
//   record DIR   in the measuring job (bench-pr, upgrade-gate): DIR/pr.json, the pull request
//                and commit of the pull_request event, uploaded with the comparison
//   find         in bench-comment: is there a benchmark artifact in the finished run, and is it
//                small enough? Sets the step outputs found=true|false and artifact-id
//   post DIR     in bench-comment, once the artifact is downloaded into DIR (outside the
//                workspace): validates it, checks its pull request against the event, and
//                creates or updates the one sticky comment; --consume-label NAME then takes
//                the approving label off
// Context comes from GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_SERVER_URL, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Exit 0 done (or nothing to do),
// 1 artifact refused or API failure, 2 bad command line or context.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PerfgateError } from '../bench/errors.js';
import { githubApi } from '../bench/github/api.js';
import { findArtifact, printable, readArtifact, verifyPullRequest, writePullRequestRecord } from '../bench/github/artifact.js';
import { removeLabel, renderComment, upsertComment } from '../bench/github/comment.js';
import { apiContext, appendSummary, pullRequestOfEvent, readEvent, setOutputs, workflowRunOfEvent } from '../bench/github/context.js';
import { githubErrors } from '../bench/github/errors.js';

const USAGE = 'usage: node scripts/pr-comment.mjs (record DIR | find | post DIR [--consume-label NAME])';
const INPUT_ERRORS = new Set(['PG_BAD_ARGS', 'PG_GITHUB_CONTEXT', 'PG_GITHUB_EVENT']);

function parseCommand(argv) {
  const { values, positionals } = parseArgs({ args: argv, options: { 'consume-label': { type: 'string' } }, allowPositionals: true, strict: false });
  const [command, dir, ...rest] = positionals;
  const problems = [];
  if (!['record', 'find', 'post'].includes(command)) problems.push(`unknown command "${command ?? ''}"`);
  if ((command === 'record' || command === 'post') && !dir) problems.push(`${command} needs the artifact directory`);
  if (command === 'find' ? dir !== undefined : rest.length) problems.push('too many arguments');
  const unknown = Object.keys(values).filter((flag) => flag !== 'consume-label');
  problems.push(...unknown.map((flag) => `unknown option --${flag}`));
  if (problems.length) throw githubErrors.badArgs(problems, USAGE);
  return { command, dir: dir && resolve(dir), consumeLabel: values['consume-label'] };
}

async function post(dir, consumeLabel) {
  const event = readEvent();
  const run = workflowRunOfEvent(event);
  const context = apiContext();
  const api = githubApi(context);
  const artifact = readArtifact(dir);
  const { number, currentHeadSha } = await verifyPullRequest({ pr: artifact.pr, run, api, repository: context.repository });
  const runUrl = `${context.serverUrl}/${context.repository}/actions/runs/${run.id}`;
  const body = renderComment(artifact, { runUrl, workflow: run.name ?? 'benchmark', currentHeadSha });
  const { action, id } = await upsertComment({ api, repository: context.repository, number, body });
  if (consumeLabel) await removeLabel({ api, repository: context.repository, number, label: consumeLabel });
  const line = `${action} the benchmark comment ${id} on pull request #${number} (${artifact.comparisons.length} comparison(s))`;
  console.log(line);
  appendSummary(line);
}

async function main() {
  const { command, dir, consumeLabel } = parseCommand(process.argv.slice(2));
  if (command === 'record') {
    const pull = pullRequestOfEvent(readEvent());
    writePullRequestRecord(dir, pull);
    console.log(`recorded pull request #${pull.number} at ${pull.headSha} in ${dir}`);
  } else if (command === 'find') {
    const context = apiContext();
    const run = workflowRunOfEvent(readEvent());
    const artifact = await findArtifact({ api: githubApi(context), repository: context.repository, runId: run.id });
    setOutputs({ found: Boolean(artifact), 'artifact-id': artifact?.id ?? '' });
    console.log(artifact ? `run ${run.id} has benchmark artifact ${artifact.id} (${artifact.size_in_bytes} bytes)` : `run ${run.id} has no benchmark artifact: nothing to post`);
  } else {
    await post(dir, consumeLabel);
  }
}

try {
  await main();
} catch (error) {
  // Messages may quote the artifact: one printable line each, never a workflow command.
  const message = error instanceof PerfgateError || error?.name === 'TimeoutError' || error?.message === 'fetch failed'
    ? error.message : null;
  if (message === null) throw error;
  for (const line of message.split('\n')) console.error(`perfgate: ${printable(line, 500)}`);
  process.exitCode = INPUT_ERRORS.has(error.code) ? 2 : 1;
}
