// A temporary git repository holding this project's servers/, with a history the test writes:
// each commit either leaves the servers as they are or makes /hello hash its answer many times
// over in a named function (a clear, CPU-bound slowdown whose place the profile must name).
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, tempDir } from './harness.js';

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

// git in a test's repository, committing as the test's author; its output without the last newline.
export const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();
const HELLO_ROUTE = "'GET /hello': async () => [TEXT_TYPE, HELLO_TEXT],";
const SLOW_HELLO_ROUTE = "'GET /hello': async () => { hashBodySlowly(HELLO_TEXT); return [TEXT_TYPE, HELLO_TEXT]; },";
const SLOW_FUNCTION = `
// FNV-1a over the answer, many times over: a synchronous hash that costs CPU per request.
export function hashBodySlowly(text) {
  let hash = 0x811c9dc5;
  for (let round = 0; round < 20000; round++) {
    for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  }
  return hash;
}
`;

/**
 * A new repository (branch main) whose one commit, "base", holds this project's servers/ and package files.
 * @returns {{repo: string, git: (...args: string[]) => string}} git: runs git there as the test author
 */
export function baseServersRepository(prefix = 'perfgate-repo-') {
  const repo = tempDir(prefix);
  cpSync(join(PROJECT_ROOT, 'servers'), join(repo, 'servers'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(PROJECT_ROOT, file), join(repo, file));
  const git = (...args) =>
    execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'base');
  return { repo, git };
}

// Replaces the /hello route of the servers (uncommitted).
function replaceHelloRoute(repo, route, from = HELLO_ROUTE) {
  const routes = join(repo, 'servers/routes/http-routes.js');
  const before = readFileSync(routes, 'utf8');
  if (!before.includes(from))
    throw new Error(`servers/routes/http-routes.js no longer has ${from}: update this helper`);
  writeFileSync(routes, before.replace(from, route));
}

// Makes /hello spend the servers' own CPU work per request (uncommitted): a plain, clear slowdown.
export const makeHelloCpuBound = (repo) =>
  replaceHelloRoute(repo, "'GET /hello': async () => { ctx.cpuWork(); return [TEXT_TYPE, HELLO_TEXT]; },");

// Makes /hello answer 500 with the right body (uncommitted): a server the answer check refuses.
export const makeHelloFail = (repo) =>
  replaceHelloRoute(repo, "'GET /hello': async () => [TEXT_TYPE, HELLO_TEXT, 500],");

// /hello building 1 KB per request: dropped at the next request, or kept for good (a leak), so
// that the two allocate alike and only the leak differs.
const DROPPING_HELLO_ROUTE =
  "'GET /hello': async () => { globalThis.keptByHello = new Array(128).fill(0); return [TEXT_TYPE, HELLO_TEXT]; },";
const KEEPING_HELLO_ROUTE =
  "'GET /hello': async () => { (globalThis.keptByHello ??= []).push(new Array(128).fill(0)); return [TEXT_TYPE, HELLO_TEXT]; },";

// Makes /hello build and drop 1 KB per request (uncommitted).
export const makeHelloDropKilobyte = (repo) => replaceHelloRoute(repo, DROPPING_HELLO_ROUTE);

// Makes the dropping /hello keep its kilobyte for good instead (uncommitted).
export const makeHelloKeepKilobyte = (repo) => replaceHelloRoute(repo, KEEPING_HELLO_ROUTE, DROPPING_HELLO_ROUTE);

/**
 * @param {Array<'same'|'slower'>} history  one commit each after the first ("base")
 * @returns {{repo: string, shas: string[], slowLine: number}} shas oldest first; slowLine: where hashBodySlowly starts
 */
export function makeServersRepository(history) {
  const { repo, git } = baseServersRepository();
  const routes = join(repo, 'servers/routes/http-routes.js');
  let slowLine;
  history.forEach((kind, index) => {
    if (kind === 'slower') {
      const before = readFileSync(routes, 'utf8');
      if (!before.includes(HELLO_ROUTE))
        throw new Error(`servers/routes/http-routes.js no longer has ${HELLO_ROUTE}: update this helper`);
      writeFileSync(routes, before.replace(HELLO_ROUTE, SLOW_HELLO_ROUTE));
      slowLine =
        readFileSync(routes, 'utf8').split('\n').length +
        SLOW_FUNCTION.split('\n').findIndex((line) => line.startsWith('export function'));
      appendFileSync(routes, SLOW_FUNCTION);
    } else {
      appendFileSync(join(repo, 'CHANGES.txt'), `change ${index + 1}\n`);
      git('add', 'CHANGES.txt');
    }
    git('commit', '-qam', `${kind === 'slower' ? 'hash the answer' : 'note'} ${index + 1}`);
  });
  const shas = git('rev-list', '--reverse', 'HEAD').split('\n');
  return { repo, shas, slowLine };
}
