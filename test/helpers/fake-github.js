// A fake of GitHub's REST API on loopback for the workflow scripts' tests: each route is
// [method, path pattern, handler(match, body, url) -> [status, json]]; every request is kept.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './harness.js';
import { git } from './servers-repo.js';

export async function startFakeGitHub(routes) {
  const requests = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const url = new URL(request.url, 'http://127.0.0.1');
    const body = text ? JSON.parse(text) : null;
    requests.push({ method: request.method, path: url.pathname, body, auth: request.headers.authorization });
    for (const [method, pattern, handle] of routes) {
      const match = request.method === method && pattern.exec(url.pathname);
      if (!match) continue;
      const [status, json] = await handle(match, body, url);
      return response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(json === undefined ? '' : JSON.stringify(json));
    }
    return response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'Not Found' }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// The environment of a workflow step on a pull request's event (opened against main by `login`,
// head `sha`) talking to `github`: the event file and an empty GITHUB_OUTPUT are written in `dir`.
export function pullRequestStepEnv(dir, { github, repo, number, login, sha }) {
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({
      repository: { default_branch: 'main' },
      pull_request: { number, user: { login }, base: { ref: 'main' }, head: { sha } },
    }),
  );
  writeFileSync(join(dir, 'outputs'), '');
  return {
    PATH: process.env.PATH,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_REPOSITORY: repo,
    GITHUB_TOKEN: 't',
    GITHUB_API_URL: github.url,
    GITHUB_OUTPUT: join(dir, 'outputs'),
  };
}

// A workflow script of scripts/ run as a step runs it: with this environment's PATH and `env` only,
// in cwd; its exit code and output whether it succeeds or fails.
export async function runStepScript(name, args, env, cwd = PROJECT_ROOT) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, 'scripts', name), ...args],
      {
        cwd,
        env: { PATH: process.env.PATH, ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

// The step outputs a script wrote to its GITHUB_OUTPUT file (name=value lines).
export const stepOutputs = (file) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('=')),
  );

// A repository on "GitHub" (a bare origin in dir) whose main is one commit and whose pull request
// #7 (refs/pull/7/head) is one commit on it, and the author's clone that pushed both.
export function pullRequestOrigin(dir) {
  const origin = join(dir, 'origin.git');
  const author = join(dir, 'author');
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
  git(dir, 'clone', '-q', origin, author);
  writeFileSync(join(author, 'a.txt'), '1');
  git(author, 'add', '.');
  git(author, 'commit', '-q', '-m', 'base');
  git(author, 'push', '-q', 'origin', 'HEAD:main');
  const mergeBase = git(author, 'rev-parse', 'HEAD');
  writeFileSync(join(author, 'a.txt'), '2');
  git(author, 'commit', '-qam', 'the pull request');
  const head = git(author, 'rev-parse', 'HEAD');
  git(author, 'push', '-q', 'origin', 'HEAD:refs/pull/7/head');
  return { origin, author, mergeBase, head };
}
