#!/usr/bin/env node
// The trusted trigger of a self-hosted benchmark (.github/workflows/bench-request.yml): run by
// an issue_comment or pull_request_target event on a GitHub-hosted runner, from the default
// branch's checkout, it never touches pull-request code, and needs no npm install (Node built-ins
// only, so it runs seconds after the event). A `/perfgate <full sha>` comment or the run-bench
// label from someone with write, maintain or admin access dispatches WORKFLOW on the default
// branch with the pull request and the approved full head commit; a bare `/perfgate` gets the
// head's full commit back, to be confirmed; a collaborator without that access gets a reply
// saying why not; anyone else's comment is ignored without a reply. With --automatic, an
// insider's pull request (a branch of this repository, an update bot's) dispatches on open,
// reopen, ready-for-review and every push, as the default branch's perfgate.config allows.
//   node scripts/bench-request.mjs --workflow FILE [--command /perfgate] [--label run-bench] [--lockfile-only] [--automatic]
// Context: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_SERVER_URL, GITHUB_OUTPUT (dispatched, pr, sha), GITHUB_STEP_SUMMARY.
import { runCommand } from '../bench/cli/run.js';
import { githubErrors } from '../bench/core/errors.js';
import { githubApi } from '../bench/github/api.js';
import { apiContext, appendSummary, readEvent, requireEnv, setOutputs } from '../bench/github/context.js';
import {
  DEFAULT_COMMAND,
  DEFAULT_LABEL,
  automaticSettings,
  decide,
  decideAutomatic,
  dispatch,
  removeLabel,
  reply,
  requestOfEvent,
} from '../bench/github/trusted-trigger.js';

const BENCH_REQUEST_COMMAND = {
  name: 'bench-request',
  invocation: 'node scripts/bench-request.mjs',
  synopsis: '--workflow FILE [--command /perfgate] [--label run-bench] [--lockfile-only] [--automatic]',
  summary:
    'The trusted trigger of a self-hosted benchmark (docs/self-hosted-runner.md). Exit 0 dispatched, refused\n(with a reply) or not a request; 1 API failure; 2 bad command line or context.',
  options: {
    workflow: {
      type: 'string',
      value: 'FILE',
      help: 'the self-hosted workflow to dispatch, a file of .github/workflows',
      required: true,
    },
    command: { type: 'string', value: 'WORD', help: 'the comment that asks for a benchmark', default: DEFAULT_COMMAND },
    label: { type: 'string', value: 'NAME', help: 'the label that asks for a benchmark', default: DEFAULT_LABEL },
    'lockfile-only': {
      type: 'boolean',
      help: "refuse pull requests that change anything but package.json, lockfiles, .nvmrc, .node-version and setup-node's node-version in a workflow (the upgrade gate)",
    },
    automatic: {
      type: 'boolean',
      help: "dispatch an insider's pull request (a branch of this repository, an update bot's) on open, reopen, ready-for-review and push, without a request, unless the default branch's perfgate.config sets github.automatic to approved-only",
    },
  },
  check: (values) =>
    values.workflow && !/^[\w.-]+\.ya?ml$/.test(values.workflow)
      ? [`--workflow must name a workflow file, e.g. bench-pr.yml (got "${values.workflow}")`]
      : [],
};

// How the measured commit was chosen, for the reply: the maintainer can check it is the one reviewed.
function whichCommit(request, decision) {
  if (request.via === 'label') return 'the head when the label was added';
  return decision.sha === decision.head
    ? 'the commit the comment names'
    : `the commit the comment names; the head is now \`${decision.head}\`, not measured`;
}

// An insider's pull request, without a request: skipped quietly (no reply on every push), or dispatched.
async function automaticRun({ api, context, defaultBranch, request, options }) {
  const settings = await automaticSettings({ api, repository: context.repository, ref: defaultBranch });
  const decision = await decideAutomatic({
    api,
    repository: context.repository,
    defaultBranch,
    request,
    settings,
    command: options.command,
  });
  if (!decision.approved) {
    setOutputs({ dispatched: false });
    appendSummary(`No automatic benchmark of #${request.number}: ${decision.reason}`);
    return console.log(`not run automatically: ${decision.reason}`);
  }
  await dispatch({
    api,
    repository: context.repository,
    workflow: options.workflow,
    ref: defaultBranch,
    number: decision.number,
    sha: decision.sha,
  });
  setOutputs({ dispatched: true, pr: decision.number, sha: decision.sha });
  const line = `Dispatched ${options.workflow} on ${defaultBranch} for #${decision.number} at ${decision.sha} (${decision.role}'s pull request, github.automatic: ${settings.automatic}).`;
  appendSummary(line);
  console.log(line);
}

await runCommand(BENCH_REQUEST_COMMAND, async ({ values: options }) => {
  const event = readEvent();
  const request = requestOfEvent(requireEnv(process.env, 'GITHUB_EVENT_NAME'), event, options);
  if (!request) {
    setOutputs({ dispatched: false });
    return console.log('not a benchmark request: nothing to do');
  }
  // No reply to people outside the repository: the bot does not talk for them.
  if (request.outsider) {
    setOutputs({ dispatched: false });
    return console.log(`a comment by @${request.actor}, who is not a collaborator: ignored`);
  }
  const context = apiContext();
  const api = githubApi(context);
  const defaultBranch = event.repository?.default_branch;
  if (!defaultBranch) throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no repository.default_branch');
  if (request.via === 'automatic') return automaticRun({ api, context, defaultBranch, request, options });
  try {
    const decision = await decide({
      api,
      repository: context.repository,
      defaultBranch,
      request,
      command: options.command,
      lockfileOnly: options['lockfile-only'],
    });
    if (decision.confirm) {
      await reply({
        api,
        repository: context.repository,
        number: request.number,
        body: `perfgate: the head of #${request.number} is \`${decision.confirm}\`. To benchmark exactly this commit, comment \`${options.command} ${decision.confirm}\` (a bare \`${options.command}\` approves nothing: a push can land between your look and this job).`,
      });
      setOutputs({ dispatched: false });
      appendSummary(
        `Benchmark request on #${request.number} by @${request.actor}: asked to confirm ${decision.confirm}`,
      );
      return console.log(`asked @${request.actor} to confirm ${decision.confirm}`);
    }
    if (!decision.approved) {
      await reply({
        api,
        repository: context.repository,
        number: request.number,
        body: `perfgate: no benchmark: ${decision.reason}`,
      });
      setOutputs({ dispatched: false });
      appendSummary(`Benchmark request on #${request.number} by @${request.actor} refused: ${decision.reason}`);
      return console.log(`refused: ${decision.reason}`);
    }
    await dispatch({
      api,
      repository: context.repository,
      workflow: options.workflow,
      ref: defaultBranch,
      number: decision.number,
      sha: decision.sha,
    });
    const runs = `${context.serverUrl}/${context.repository}/actions/workflows/${options.workflow}`;
    await reply({
      api,
      repository: context.repository,
      number: decision.number,
      body: `perfgate: benchmarking \`${decision.sha}\` against its merge base with ${defaultBranch}, as @${decision.actor} (${decision.role}) asked (${whichCommit(request, decision)}); later pushes are not measured by this run. [Runs](${runs}).`,
    });
    setOutputs({ dispatched: true, pr: decision.number, sha: decision.sha });
    appendSummary(
      `Dispatched ${options.workflow} on ${defaultBranch} for #${decision.number} at ${decision.sha} (asked by @${decision.actor}, ${decision.role}).`,
    );
    console.log(`dispatched ${options.workflow} for #${decision.number} at ${decision.sha}`);
  } finally {
    // A label approves once: it comes off whatever the outcome, so the next commit needs a new one.
    if (request.via === 'label')
      await removeLabel({ api, repository: context.repository, number: request.number, label: options.label });
  }
});
