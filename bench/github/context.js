// GitHub Actions' context, read only from its documented variables and files (GITHUB_EVENT_PATH,
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_REPOSITORY, ...), never from `${{ }}` text, so
// that every script runs the same under a test that provides them.
import { appendFileSync } from 'node:fs';
import { githubErrors } from '../core/errors.js';
import { readInputJson } from '../core/read-file.js';

export function requireEnv(env, name) {
  if (!env[name]) throw githubErrors.missingContext(name);
  return env[name];
}

export function readEvent(env = process.env) {
  const file = requireEnv(env, 'GITHUB_EVENT_PATH');
  return readInputJson(file, (problem) => githubErrors.badEvent(file, problem));
}

// Where the REST API is and who we are there; GITHUB_API_URL differs on GitHub Enterprise.
export function apiContext(env = process.env) {
  const repository = requireEnv(env, 'GITHUB_REPOSITORY');
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
    throw githubErrors.badEvent('GITHUB_REPOSITORY', `"${repository}" is not OWNER/NAME`);
  return {
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, ''),
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/$/, ''),
    repository,
    token: requireEnv(env, 'GITHUB_TOKEN'),
  };
}

// The pull request a `pull_request` event is about: the commit measured and where to report.
export function pullRequestOfEvent(event, file = 'GITHUB_EVENT_PATH') {
  const pull = event?.pull_request;
  if (!Number.isInteger(pull?.number) || !/^[0-9a-f]{40}$/.test(pull?.head?.sha ?? '')) {
    throw githubErrors.badEvent(
      file,
      'has no pull_request with a number and a head sha (is this a pull_request event?)',
    );
  }
  return { number: pull.number, headSha: pull.head.sha };
}

// Step outputs are `key=value` lines; a value is one line, so nothing can forge another key.
export function setOutputs(outputs, env = process.env) {
  const lines = Object.entries(outputs).map(([key, value]) => {
    if (/[\r\n]/.test(String(value))) throw new TypeError(`output ${key} must be one line`);
    return `${key}=${value}\n`;
  });
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, lines.join(''));
}

export function appendSummary(markdown, env = process.env) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
}

// The finished run a `workflow_run` event is about, with the fields the PR comment trusts.
export function workflowRunOfEvent(event, file = 'GITHUB_EVENT_PATH') {
  const run = event?.workflow_run;
  if (!Number.isInteger(run?.id) || !/^[0-9a-f]{40}$/.test(run?.head_sha ?? '')) {
    throw githubErrors.badEvent(file, 'has no workflow_run with an id and a head sha (is this a workflow_run event?)');
  }
  return run;
}

// Environment that authenticates one git command to GitHub with the job's token, as an HTTP
// header from git's environment config (git >= 2.31), never in a URL, argument or file.
export function gitAuthEnv(token, serverUrl = 'https://github.com') {
  if (!token) return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${serverUrl.replace(/\/$/, '')}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}
