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
import { parseArgs } from 'node:util';
import { PerfgateError } from '../bench/errors.js';
import { githubApi } from '../bench/github/api.js';
import { findArtifact, printable, readArtifact, verifyPullRequest } from '../bench/github/artifact.js';
import { renderComment, upsertComment } from '../bench/github/comment.js';
import { apiContext, appendSummary, readEvent, setOutputs, workflowRunOfEvent } from '../bench/github/context.js';
import { githubErrors } from '../bench/github/errors.js';

const USAGE = 'usage: node scripts/pr-comment.mjs (find | post DIR)';
const INPUT_ERRORS = new Set(['PG_BAD_ARGS', 'PG_GITHUB_CONTEXT', 'PG_GITHUB_EVENT']);

function parseCommand(argv) {
  const { positionals, values } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: false });
  const [command, dir, ...rest] = positionals;
  const problems = [];
  if (!['find', 'post'].includes(command)) problems.push(`unknown command "${command ?? ''}"`);
  if (command === 'post' && !dir) problems.push('post needs the artifact directory');
  if (command === 'find' ? dir !== undefined : rest.length) problems.push('too many arguments');
  problems.push(...Object.keys(values).map((flag) => `unknown option --${flag}`));
  if (problems.length) throw githubErrors.badArgs(problems, USAGE);
  return { command, dir: dir && resolve(dir) };
}

async function post(dir) {
  const event = readEvent();
  const run = workflowRunOfEvent(event);
  const context = apiContext();
  const api = githubApi(context);
  const artifact = readArtifact(dir);
  const defaultBranch = event.repository?.default_branch;
  const { number, currentHeadSha } = await verifyPullRequest({ pr: artifact.pr, run, api, repository: context.repository, defaultBranch });
  const runUrl = `${context.serverUrl}/${context.repository}/actions/runs/${run.id}`;
  const body = renderComment(artifact, { runUrl, workflow: run.name ?? 'benchmark', currentHeadSha });
  const { action, id } = await upsertComment({ api, repository: context.repository, number, body });
  const line = `${action} the benchmark comment ${id} on pull request #${number} (${artifact.comparisons.length} comparison(s))`;
  console.log(line);
  appendSummary(line);
}

async function main() {
  const { command, dir } = parseCommand(process.argv.slice(2));
  if (command === 'post') return post(dir);
  const context = apiContext();
  const run = workflowRunOfEvent(readEvent());
  const artifact = await findArtifact({ api: githubApi(context), repository: context.repository, runId: run.id });
  setOutputs({ found: Boolean(artifact), 'artifact-id': artifact?.id ?? '' });
  console.log(artifact ? `run ${run.id} has benchmark artifact ${artifact.id} (${artifact.size_in_bytes} bytes)` : `run ${run.id} has no benchmark artifact: nothing to post`);
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
