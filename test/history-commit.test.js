// The commit object of a local run: HEAD of a git checkout, or a placeholder elsewhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitFromGit, placeholderCommit, validateRun, webUrlOfRemote } from '../bench/history/index.js';
import { githubUsername } from '../bench/history/git-commit.js';
import { git, gitCheckout, tempDir } from './fixtures/history/helpers.js';

const isValidCommit = (commit) => validateRun({ commit, date: 0, suites: [] }).length === 0;

test("a git checkout gives the action's commit fields from HEAD, linked through its origin", (t) => {
  const { dir, id } = gitCheckout(t, 'Speed up routing\n\nUse a radix tree.');
  git(dir, 'remote', 'add', 'origin', 'git@github.com:acme/api.git');
  const commit = commitFromGit(dir);
  assert.equal(commit.id, id);
  assert.equal(commit.tree_id, git(dir, 'rev-parse', 'HEAD^{tree}'));
  assert.equal(commit.message, 'Speed up routing\n\nUse a radix tree.');
  assert.deepEqual(commit.author, { email: 'test@perfgate.invalid', name: 'Perfgate Test' });
  // The push payload's head_commit keys, in its order (what github-action-benchmark stores).
  assert.deepEqual(Object.keys(commit), [
    'author',
    'committer',
    'distinct',
    'id',
    'message',
    'timestamp',
    'tree_id',
    'url',
  ]);
  assert.equal(commit.distinct, true);
  assert.deepEqual(commit.committer, commit.author);
  assert.match(commit.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  assert.equal(commit.url, `https://github.com/acme/api/commit/${id}`);
  assert.ok(isValidCommit(commit));
});

test("a repoUrl given replaces the origin's; a checkout without a web remote has no link", (t) => {
  const { dir, id } = gitCheckout(t, 'x');
  assert.equal(commitFromGit(dir).url, '');
  assert.equal(
    commitFromGit(dir, { repoUrl: 'https://git.example.com/team/api/' }).url,
    `https://git.example.com/team/api/commit/${id}`,
  );
});

test("a directory outside git, or a repository without a commit, gets a placeholder named by the run's time", (t) => {
  const plain = tempDir(t);
  const date = Date.UTC(2026, 1, 19, 14, 55, 28, 123);
  const commit = commitFromGit(plain, { date });
  assert.deepEqual(commit, placeholderCommit(plain, date));
  assert.equal(commit.id, 'local-20260219T145528Z');
  assert.equal(commit.timestamp, '2026-02-19T14:55:28Z');
  assert.match(commit.message, /not a git checkout/);
  assert.ok(isValidCommit(commit));
  const empty = tempDir(t);
  git(empty, 'init', '-q');
  assert.match(commitFromGit(empty, { date }).id, /^local-/);
});

test('remotes become web addresses without credentials; local paths have none', () => {
  const cases = {
    'https://github.com/acme/api.git': 'https://github.com/acme/api',
    'https://x-access-token:secret@github.com/acme/api': 'https://github.com/acme/api',
    'git@github.com:acme/api.git': 'https://github.com/acme/api',
    'ssh://git@github.com:22/acme/api.git': 'https://github.com/acme/api',
    '/srv/git/api.git': '',
    '../api': '',
    'file:///srv/git/api.git': '',
  };
  for (const [remote, web] of Object.entries(cases)) assert.equal(webUrlOfRemote(remote), web, remote);
});

test("a GitHub no-reply or web-flow email gives the username, any other email none (as GitHub's payload)", () => {
  assert.equal(githubUsername('12345+octo-cat@users.noreply.github.com'), 'octo-cat');
  assert.equal(githubUsername('octocat@users.noreply.github.com'), 'octocat');
  assert.equal(githubUsername('noreply@github.com'), 'web-flow');
  assert.equal(githubUsername('dev@example.com'), undefined);
});
