#!/usr/bin/env node
// The trusted trigger of a self-hosted benchmark (.github/workflows/bench-request.yml): run by
// an issue_comment or pull_request_target event on a GitHub-hosted runner, from the default
// branch's checkout, it never touches pull-request code. A `/perfgate` comment or the run-bench
// label from someone with write, maintain or admin access dispatches WORKFLOW on the default
// branch with the pull request and the approved head commit; anyone else gets a reply saying why not.
//   node scripts/bench-request.mjs --workflow FILE [--command /perfgate] [--label run-bench]
// Context: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_SERVER_URL, GITHUB_OUTPUT (dispatched, pr, sha), GITHUB_STEP_SUMMARY.
// Exit 0 dispatched, refused (with a reply) or not a request; 1 API failure; 2 bad command line or context.
import { parseArgs } from 'node:util';
import { PerfgateError } from '../bench/errors.js';
import { githubApi } from '../bench/github/api.js';
import { removeLabel } from '../bench/github/comment.js';
import { apiContext, appendSummary, readEvent, requireEnv, setOutputs } from '../bench/github/context.js';
import { githubErrors } from '../bench/github/errors.js';
import { DEFAULT_COMMAND, DEFAULT_LABEL, decide, dispatch, reply, requestOfEvent } from '../bench/github/trusted-trigger.js';

const USAGE = `usage: node scripts/bench-request.mjs --workflow FILE [--command ${DEFAULT_COMMAND}] [--label ${DEFAULT_LABEL}]`;

function parseCommand(argv) {
  try {
    const { values } = parseArgs({ args: argv, options: { workflow: { type: 'string' }, command: { type: 'string', default: DEFAULT_COMMAND }, label: { type: 'string', default: DEFAULT_LABEL } } });
    if (!/^[\w.-]+\.ya?ml$/.test(values.workflow ?? '')) throw new Error(`--workflow must name a workflow file of .github/workflows, e.g. bench-pr.yml (got "${values.workflow ?? ''}")`);
    return values;
  } catch (error) {
    throw githubErrors.badArgs([error.message], USAGE);
  }
}

async function main() {
  const options = parseCommand(process.argv.slice(2));
  const event = readEvent();
  const request = requestOfEvent(requireEnv(process.env, 'GITHUB_EVENT_NAME'), event, options);
  if (!request) {
    setOutputs({ dispatched: false });
    return console.log('not a benchmark request: nothing to do');
  }
  const context = apiContext();
  const api = githubApi(context);
  const defaultBranch = event.repository?.default_branch;
  if (!defaultBranch) throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no repository.default_branch');
  try {
    const decision = await decide({ api, repository: context.repository, defaultBranch, request });
    if (!decision.approved) {
      await reply({ api, repository: context.repository, number: request.number, body: `perfgate: no benchmark: ${decision.reason}` });
      setOutputs({ dispatched: false });
      appendSummary(`Benchmark request on #${request.number} by @${request.actor} refused: ${decision.reason}`);
      return console.log(`refused: ${decision.reason}`);
    }
    await dispatch({ api, repository: context.repository, workflow: options.workflow, ref: defaultBranch, number: decision.number, sha: decision.sha });
    const runs = `${context.serverUrl}/${context.repository}/actions/workflows/${options.workflow}`;
    await reply({ api, repository: context.repository, number: decision.number,
      body: `perfgate: benchmarking \`${decision.sha}\` against its merge base with ${defaultBranch}, as @${decision.actor} (${decision.role}) asked; later pushes are not measured by this run. [Runs](${runs}).` });
    setOutputs({ dispatched: true, pr: decision.number, sha: decision.sha });
    appendSummary(`Dispatched ${options.workflow} on ${defaultBranch} for #${decision.number} at ${decision.sha} (asked by @${decision.actor}, ${decision.role}).`);
    console.log(`dispatched ${options.workflow} for #${decision.number} at ${decision.sha}`);
  } finally {
    // A label approves once: it comes off whatever the outcome, so the next commit needs a new one.
    if (request.via === 'label') await removeLabel({ api, repository: context.repository, number: request.number, label: options.label });
  }
}

try {
  await main();
} catch (error) {
  const known = error instanceof PerfgateError || error?.name === 'TimeoutError' || error?.message === 'fetch failed';
  if (!known) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = ['PG_BAD_ARGS', 'PG_GITHUB_CONTEXT', 'PG_GITHUB_EVENT'].includes(error.code) ? 2 : 1;
}
