// `npm run publish` against a local bare repository: it creates the pages branch, appends
// later runs, keeps the branch's other files, and on any failure leaves the branch as it was
// and says why. runPublish checks that every run removes its temporary directories.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TREND_FILES } from '../bench/comparison/trend/write.js';
import {
  bareRepository,
  benches,
  branchData,
  git,
  gitCheckout,
  resultsDir,
  runPublish,
  tempDir,
} from './fixtures/history/helpers.js';

const tip = (repo, branch = 'gh-pages') => git(repo, 'rev-parse', `refs/heads/${branch}`);

test('the first publish creates the branch with the run; the next one appends to it', async (t) => {
  const repo = bareRepository(t);
  const first = gitCheckout(t, 'first measured commit');
  const created = await runPublish(t, [
    '--repo',
    repo,
    '--results',
    resultsDir(t, 1000),
    '--commit-dir',
    first.dir,
    '--repo-url',
    'https://github.com/acme/api',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(
    created.stdout,
    new RegExp(`published "perfgate throughput", "perfgate latency" for ${first.id} to gh-pages:dev/bench/data.js`),
  );
  assert.equal(git(repo, 'rev-list', '--count', 'gh-pages'), '1');
  assert.equal(git(repo, 'ls-tree', '-r', '--name-only', 'gh-pages'), 'dev/bench/data.js');

  const second = gitCheckout(t, 'second measured commit');
  const appended = await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1100), '--commit-dir', second.dir]);
  assert.equal(appended.code, 0, appended.stderr);
  assert.equal(git(repo, 'rev-list', '--count', 'gh-pages'), '2');
  const data = branchData(repo);
  assert.equal(data.repoUrl, 'https://github.com/acme/api');
  for (const suite of ['perfgate throughput', 'perfgate latency']) {
    assert.deepEqual(
      data.entries[suite].map((entry) => entry.commit.id),
      [first.id, second.id],
      suite,
    );
  }
  assert.equal(data.entries['perfgate throughput'][0].commit.url, `https://github.com/acme/api/commit/${first.id}`);
  assert.deepEqual(data.entries['perfgate throughput'][1].benches, benches(1100));
  assert.equal(data.entries['perfgate latency'][1].tool, 'customSmallerIsBetter');
});

test("a project's run and its relative trend are grouped under the project's name; perfgate's own keep theirs", async (t) => {
  // The results directory of `perfgate bench` followed by `perfgate trend` (the adopters' bench action).
  const withTrend = (value) => {
    const dir = resultsDir(t, value);
    const relative = (name) => [{ name, value: 99.5, unit: '%', range: '95% CI 98.90 to 100.10' }];
    writeFileSync(join(dir, TREND_FILES.bigger), JSON.stringify(relative('express json c=100 - req/s vs baseline')));
    writeFileSync(
      join(dir, TREND_FILES.smaller),
      JSON.stringify(relative('express json c=100 - CPU µs/request vs baseline')),
    );
    return dir;
  };
  const published = async (commitDir) => {
    const repo = bareRepository(t);
    const run = await runPublish(t, ['--repo', repo, '--results', withTrend(1), '--commit-dir', commitDir]);
    assert.equal(run.code, 0, run.stderr);
    return Object.keys(branchData(repo).entries);
  };
  const project = gitCheckout(t, 'a project');
  writeFileSync(join(project.dir, 'perfgate.config.json'), JSON.stringify({ name: 'shop-api', servers: {} }));
  assert.deepEqual(await published(project.dir), [
    'shop-api throughput',
    'shop-api latency',
    'shop-api throughput vs baseline',
    'shop-api latency vs baseline',
  ]);
  assert.deepEqual(await published(gitCheckout(t, 'perfgate itself').dir), [
    'perfgate throughput',
    'perfgate latency',
    'perfgate throughput vs baseline',
    'perfgate latency vs baseline',
  ]);
});

test("--input names each file's tool and suite; --branch, --dir and --max-items are honoured", async (t) => {
  const repo = bareRepository(t);
  const input = join(tempDir(t), 'gab-bigger.json');
  writeFileSync(input, JSON.stringify(benches(5)));
  const args = [
    '--repo',
    repo,
    '--input',
    `${input}:customBiggerIsBetter:api: throughput`,
    '--branch',
    'perf',
    '--dir',
    'bench/data',
    '--max-items',
    '2',
  ];
  for (let run = 0; run < 3; run += 1) assert.equal((await runPublish(t, args)).code, 0);
  const data = branchData(repo, 'perf', 'bench/data/data.js');
  assert.deepEqual(Object.keys(data.entries), ['api: throughput']);
  assert.equal(data.entries['api: throughput'].length, 2);
  assert.match(data.entries['api: throughput'][0].commit.id, /^[0-9a-f]{40}$|^local-/);
});

// A bare repository whose gh-pages branch holds one file.
function pagesBranchWith(t, file, content) {
  const repo = bareRepository(t);
  const site = tempDir(t);
  git(site, 'init', '-q', '-b', 'gh-pages');
  writeFileSync(join(site, file), content);
  git(site, 'add', file);
  git(site, 'commit', '-q', '-m', `pages with ${file}`);
  git(site, 'push', '-q', repo, 'gh-pages');
  return repo;
}

test('the other files of an existing pages branch are kept', async (t) => {
  const repo = pagesBranchWith(t, 'index.html', '<h1>trends</h1>');
  assert.equal((await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1)])).code, 0);
  assert.equal(git(repo, 'ls-tree', '-r', '--name-only', 'gh-pages'), 'dev/bench/data.js\nindex.html');
  assert.equal(git(repo, 'rev-list', '--count', 'gh-pages'), '2');
});

test('a damaged data.js on the branch is reported and left as it was', async (t) => {
  const repo = pagesBranchWith(t, 'data.js', 'window.BENCHMARK_DATA = {"entries": ');
  const before = tip(repo);
  const { code, stderr } = await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1), '--dir', '.']);
  assert.equal(code, 2);
  assert.match(
    stderr,
    new RegExp(`benchmark data data\\.js on branch gh-pages of ${repo} is malformed: its JSON does not parse`),
  );
  assert.match(stderr, /restore it from git or move it aside/);
  assert.equal(tip(repo), before);
});

test('a push the remote refuses for another reason than a race fails at once, branch unchanged', async (t) => {
  const repo = bareRepository(t);
  assert.equal((await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1)])).code, 0);
  const before = tip(repo);
  const hook = join(repo, 'hooks/pre-receive');
  writeFileSync(hook, '#!/bin/sh\necho "gh-pages is frozen" >&2\nexit 1\n');
  chmodSync(hook, 0o755);
  const { code, stderr } = await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 2)]);
  assert.equal(code, 2);
  assert.match(
    stderr,
    /publishing failed, the pages branch was not changed: the push to branch gh-pages of .* was refused \(\[remote rejected\] \(pre-receive hook declined\)\)/,
  );
  assert.match(stderr, /gh-pages is frozen/);
  assert.doesNotMatch(stderr, /retrying/);
  assert.equal(tip(repo), before);
});

test('an unreachable repository, bad options or bad inputs fail with the reason', async (t) => {
  const missing = join(tempDir(t), 'missing.git');
  const unreachable = await runPublish(t, ['--repo', missing, '--results', resultsDir(t, 1)]);
  assert.equal(unreachable.code, 2);
  assert.match(unreachable.stderr, /cannot read branch gh-pages of .*missing\.git[\s\S]*check --repo/);

  const badOptions = await runPublish(t, [
    '--results',
    'x',
    '--input',
    'a.json:cargo',
    '--max-items',
    'lots',
    '--force',
  ]);
  assert.equal(badOptions.code, 2);
  for (const problem of [
    'unknown option --force',
    '--repo is required',
    '--input "a.json:cargo" is not FILE:TOOL[:SUITE]',
    '--max-items must be a whole number',
  ]) {
    assert.ok(badOptions.stderr.includes(problem), problem);
  }

  const repo = bareRepository(t);
  const escaping = await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1), '--dir', '../outside']);
  assert.equal(escaping.code, 2);
  assert.match(escaping.stderr, /the data directory "\.\.\/outside" is outside the repository/);
  const noInput = await runPublish(t, ['--repo', repo, '--results', tempDir(t)]);
  assert.equal(noInput.code, 2);
  assert.match(noInput.stderr, /benchmark-action-bigger\.json does not exist/);
  const badBranch = await runPublish(t, ['--repo', repo, '--results', resultsDir(t, 1), '--branch', 'gh pages']);
  assert.equal(badBranch.code, 2);
  assert.match(badBranch.stderr, /"gh pages" is not a valid branch name/);
  assert.throws(() => tip(repo), 'nothing was pushed');
});
