// Publishers that race for the pages branch: whoever pushes second is rejected, fetches the
// new tip, appends again and pushes, so every run lands and none is lost.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { appendRunToFile } from '../bench/history/index.js';
import {
  bareRepository,
  branchData,
  git,
  gitCheckout,
  resultsDir,
  runPublish,
  sampleRun,
  tempDir,
} from './fixtures/history/helpers.js';

const commitIds = (data, suite) => data.entries[suite].map((entry) => entry.commit.id);

test('two publishers started together on a repository without the branch both land', async (t) => {
  const repo = bareRepository(t);
  const checkouts = [gitCheckout(t, 'run A'), gitCheckout(t, 'run B')];
  const outcomes = await Promise.all(
    checkouts.map((checkout, index) =>
      runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1000 + index), '--commit-dir', checkout.dir]),
    ),
  );
  for (const outcome of outcomes) assert.equal(outcome.code, 0, outcome.stderr);
  const data = branchData(repo);
  for (const suite of ['perfgate throughput', 'perfgate latency']) {
    assert.deepEqual(commitIds(data, suite).sort(), checkouts.map((checkout) => checkout.id).sort(), suite);
  }
  assert.equal(git(repo, 'rev-list', '--count', 'gh-pages'), '2');
});

test('a branch moved between fetch and push is fetched again, and the other run is kept', async (t) => {
  const repo = bareRepository(t);
  const first = gitCheckout(t, 'first');
  assert.equal(
    (await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1), '--commit-dir', first.dir])).code,
    0,
  );

  // Another publisher's commit, ready aside; the hook makes it land during our first push.
  const other = tempDir(t);
  git(other, 'clone', '-q', '--branch', 'gh-pages', repo, '.');
  appendRunToFile(join(other, 'dev/bench/data.js'), sampleRun({ id: 'b'.repeat(40) }));
  git(other, 'commit', '-q', '-am', 'the other publisher');
  git(other, 'push', '-q', 'origin', 'HEAD:refs/prepared/other');
  const hook = join(repo, 'hooks/pre-receive');
  writeFileSync(
    hook,
    [
      '#!/bin/sh',
      'cat > /dev/null',
      'if [ ! -e moved-once ]; then',
      '  touch moved-once',
      // A hook may not move refs inside the push's quarantine; outside of it, it can.
      '  env -u GIT_QUARANTINE_PATH git update-ref refs/heads/gh-pages refs/prepared/other',
      'fi',
      '',
    ].join('\n'),
  );
  chmodSync(hook, 0o755);

  const last = gitCheckout(t, 'last');
  const { code, stdout, stderr } = await runPublish(t, [
    '--repo',
    repo,
    '--results',
    resultsDir(t, 3),
    '--commit-dir',
    last.dir,
  ]);
  assert.equal(code, 0, stderr);
  assert.match(
    stderr,
    /push rejected \(.*failed to update ref.*\): another publisher moved gh-pages; retrying on its new tip \(2 of 5\)/,
  );
  assert.match(stdout, /\(after 2 tries\)$/m);
  const data = branchData(repo);
  assert.deepEqual(commitIds(data, 'perfgate throughput'), [first.id, 'b'.repeat(40), last.id]);
  assert.deepEqual(commitIds(data, 'perfgate latency'), [first.id, last.id]);
  assert.equal(git(repo, 'log', '-1', '--format=%s', 'gh-pages^'), 'the other publisher');
});
