// bench/core/git.js: the one way perfgate calls git; failures come back as data for callers that
// word them, and an aborted signal stops git without leaving it running.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { git, gitAsync, gitOutput, gitResult } from '../bench/core/git.js';

const emptyRepo = () => {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-git-'));
  git(dir, 'init', '-q');
  return dir;
};

test('gitResult gives the exit code and both outputs, and takes extra environment', () => {
  const dir = emptyRepo();
  const missing = gitResult(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: dir });
  assert.equal(missing.ok, false);
  assert.equal(missing.exitCode, 1);
  const named = gitResult(['var', 'GIT_COMMITTER_IDENT'], {
    cwd: dir,
    env: { GIT_COMMITTER_NAME: 'Seam Tester', GIT_COMMITTER_EMAIL: 'seam@example.test' },
  });
  assert.equal(named.ok, true);
  assert.match(named.stdout, /^Seam Tester <seam@example\.test>/);
  assert.match(gitResult(['no-such-command'], { cwd: dir }).stderr, /not a git command/);
});

test('gitOutput is null where git cannot answer; git throws', () => {
  const dir = emptyRepo();
  assert.equal(gitOutput(['rev-parse', 'HEAD'], dir), null);
  assert.throws(() => git(dir, 'rev-parse', '--verify', '--quiet', 'HEAD'));
});

test('gitAsync answers like gitResult, and an aborted signal ends git', async () => {
  const dir = emptyRepo();
  const listed = await gitAsync(['ls-remote', '--exit-code', '--heads', dir, 'refs/heads/none'], { cwd: dir });
  assert.equal(listed.exitCode, 2, 'ls-remote says "no such ref" with exit code 2');
  const controller = new AbortController();
  controller.abort();
  const aborted = await gitAsync(['status'], { cwd: dir, signal: controller.signal });
  assert.equal(aborted.ok, false);
  assert.equal(aborted.exitCode, null);
});
