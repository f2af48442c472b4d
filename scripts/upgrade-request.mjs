#!/usr/bin/env node
// The trusted trigger of the upgrade gate (.github/workflows/upgrade-request.yml): on a pull
// request by Dependabot or Renovate, a GitHub-hosted job of the default branch's workflow reads the package-lock.json
// of the merge base and of the head through the REST API, without checking anything out or
// installing, and dispatches the self-hosted upgrade-gate.yml on the default branch with that pull
// request and head commit only when a measured framework package changed version, or the Node.js
// version the project declares (.nvmrc, .node-version, package.json, setup-node in a workflow). Node built-ins
// only: the job installs nothing. Anyone else's pull request is gated only on a maintainer's
// request (scripts/bench-request.mjs --lockfile-only).
//   node scripts/upgrade-request.mjs --workflow FILE
// Context: GITHUB_EVENT_PATH (pull_request_target), GITHUB_REPOSITORY, GITHUB_TOKEN,
// GITHUB_API_URL, GITHUB_OUTPUT (dispatched, pr, sha), GITHUB_STEP_SUMMARY.
import { runCommand } from '../bench/cli/run.js';
import { githubErrors } from '../bench/core/errors.js';
import { githubApi } from '../bench/github/api.js';
import { apiContext, appendSummary, pullRequestOfEvent, readEvent, setOutputs } from '../bench/github/context.js';
import { changedFrameworks, lockfileAt } from '../bench/github/packages.js';
import { changedRuntime, runtimeFilesAt } from '../bench/github/runtime-upgrade.js';
import { dispatch, isUpdateBotPull, UPDATE_BOTS } from '../bench/github/trusted-trigger.js';

const UPGRADE_REQUEST_COMMAND = {
  name: 'upgrade-request',
  invocation: 'node scripts/upgrade-request.mjs',
  synopsis: '--workflow FILE',
  summary:
    'Dispatches the self-hosted upgrade gate of a Dependabot or Renovate pull request only when a measured framework or the Node.js version changed.\nExit 0 dispatched or nothing to measure; 1 API failure; 2 bad command line, context or lockfile.',
  options: {
    workflow: {
      type: 'string',
      value: 'FILE',
      help: 'the self-hosted workflow to dispatch, e.g. upgrade-gate.yml',
      required: true,
    },
  },
  check: (values) =>
    values.workflow && !/^[\w.-]+\.ya?ml$/.test(values.workflow)
      ? [`--workflow must name a workflow file, e.g. upgrade-gate.yml (got "${values.workflow}")`]
      : [],
};

await runCommand(UPGRADE_REQUEST_COMMAND, async ({ values }) => {
  const event = readEvent();
  const { number, headSha } = pullRequestOfEvent(event);
  const defaultBranch = event.repository?.default_branch;
  const finish = (line, outputs) => {
    setOutputs(outputs);
    appendSummary(line);
    console.log(line);
  };
  // The pull request's author, not the actor: a re-run by someone else keeps the author.
  if (!isUpdateBotPull(event.pull_request))
    return finish(
      `#${number} is by @${event.pull_request.user?.login}, not ${UPDATE_BOTS.join(' or ')}: no upgrade gate unless a maintainer asks for it`,
      { dispatched: false },
    );
  if (event.pull_request.base?.ref !== defaultBranch)
    return finish(`#${number} does not target ${defaultBranch}: no upgrade gate`, { dispatched: false });
  const context = apiContext();
  const api = githubApi(context);
  const compared = await api.request('GET', `/repos/${context.repository}/compare/${defaultBranch}...${headSha}`);
  const mergeBase = compared?.merge_base_commit?.sha;
  if (!/^[0-9a-f]{40}$/.test(mergeBase ?? ''))
    throw githubErrors.api('GET', 'compare', 'no merge base', `${defaultBranch}...${headSha}`);
  const [baseLock, headLock] = await Promise.all([
    lockfileAt({ api, repository: context.repository, sha: mergeBase, what: "the merge base's package-lock.json" }),
    lockfileAt({ api, repository: context.repository, sha: headSha, what: "the pull request's package-lock.json" }),
  ]);
  const [baseFiles, headFiles] = await Promise.all(
    [mergeBase, headSha].map((sha) => runtimeFilesAt({ api, repository: context.repository, sha })),
  );
  const changes = [...changedFrameworks(baseLock, headLock), ...changedRuntime(baseFiles, headFiles)];
  if (!changes.length)
    return finish(
      `#${number} at ${headSha}: no measured framework and no Node.js version changed; the self-hosted gate does not run`,
      { dispatched: false },
    );
  await dispatch({
    api,
    repository: context.repository,
    workflow: values.workflow,
    ref: defaultBranch,
    number,
    sha: headSha,
  });
  finish(
    `#${number} at ${headSha}: ${changes.map((change) => `${change.name} ${change.from} → ${change.to}`).join(', ')}; dispatched ${values.workflow} on ${defaultBranch}`,
    { dispatched: true, pr: number, sha: headSha },
  );
});
