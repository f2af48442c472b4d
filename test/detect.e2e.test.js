// npm run detect over a history: each change point with suite, bench, commit, means and p, the
// direction from the tool as github-action-benchmark decides it, and "report once": a point
// reported (job summary, commit comment) is not reported again by the next run.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { findChangePoints } from '../bench/history/detect/find.js';
import { syntheticData, syntheticSeries, syntheticSha } from '../bench/history/detect/synthetic.js';
import { serializeBenchmarkData } from '../bench/history/format.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const run = promisify(execFile);
const REPO = 'perf/gate';

// 10 % fewer req/s and 10 % more latency from run 150 on; the error rate never moves.
function history(length) {
  const steps = [{ at: 150, factor: 0.9 }];
  return syntheticData({
    'perfgate throughput': {
      tool: 'customBiggerIsBetter',
      benches: { 'express json c=100 - req/s': syntheticSeries({ length, cv: 0.03, steps, seed: 5 }) },
    },
    'perfgate latency': {
      tool: 'customSmallerIsBetter',
      benches: {
        'express json c=100 - p99 latency': syntheticSeries({
          length,
          mean: 20,
          cv: 0.03,
          steps: [{ at: 150, factor: 1.1 }],
          seed: 6,
        }),
        'express json c=100 - errors %': Array(length).fill(0),
      },
    },
  });
}

let github;
let comments;
before(async () => {
  comments = [];
  github = await startFakeGitHub([
    [
      'POST',
      new RegExp(`^/repos/${REPO}/commits/([0-9a-f]{40})/comments$`),
      (match, body) => {
        comments.push({ sha: match[1], body: body.body });
        return [201, { id: comments.length }];
      },
    ],
  ]);
});
after(() => github.close());

async function detect(args, env = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/detect.mjs', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

test("a step is named by suite, bench and commit; its kind follows the tool's direction", () => {
  const points = findChangePoints(history(200));
  assert.deepEqual(
    points.map((p) => [p.suite, p.bench, p.kind, p.index, p.commit.id]),
    [
      ['perfgate throughput', 'express json c=100 - req/s', 'regression', 150, syntheticSha(150)],
      ['perfgate latency', 'express json c=100 - p99 latency', 'regression', 150, syntheticSha(150)],
    ],
  );
  const [throughput] = points;
  assert.equal(throughput.previousCommit.id, syntheticSha(149));
  assert.equal(throughput.commit.url, `https://github.com/${REPO}/commit/${syntheticSha(150)}`);
  assert.ok(throughput.change < -0.08 && throughput.change > -0.12);
  assert.deepEqual([throughput.before.n, throughput.after.n], [150, 50]);
});

test("values written as numeric strings count, as the action's page plots them", async () => {
  const data = history(200);
  for (const entry of data.entries['perfgate throughput'])
    for (const bench of entry.benches) bench.value = String(bench.value);
  const file = join(tempDir(), 'data.js');
  writeFileSync(file, serializeBenchmarkData(data));
  const json = join(tempDir(), 'points.json');
  const result = await detect(['--data', file, '--json', json]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(readFileSync(json, 'utf8'), /express json c=100 - req\/s/);
  assert.deepEqual(
    findChangePoints(data).map((p) => [p.bench, p.index]),
    [
      ['express json c=100 - req/s', 150],
      ['express json c=100 - p99 latency', 150],
    ],
  );
});

test('a point is reported once: summary, JSON and one commit comment, then nothing on the next run', async () => {
  const dir = tempDir('perfgate-detect-');
  const data = join(dir, 'data.js');
  const state = join(dir, 'change-points.json');
  const summary = join(dir, 'summary.md');
  const env = {
    GITHUB_TOKEN: 'test-token',
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: github.url,
    GITHUB_STEP_SUMMARY: summary,
  };
  const args = ['--data', data, '--state', state, '--record', '--comment', '--json', join(dir, 'points.json')];

  writeFileSync(data, serializeBenchmarkData(history(200)));
  const first = await detect(args, env);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(comments.length, 1, 'both points are at one commit: one comment');
  assert.equal(comments[0].sha, syntheticSha(150));
  assert.match(comments[0].body, /🔴 regression \| `perfgate throughput` \| `express json c=100 - req\/s`/);
  assert.match(comments[0].body, /-10\.\d %|-9\.\d %/);
  assert.match(readFileSync(summary, 'utf8'), /2 new change point\(s\) \(2 in the history\)/);
  const json = JSON.parse(readFileSync(join(dir, 'points.json'), 'utf8'));
  assert.equal(json.format, 'perfgate-change-points');
  assert.deepEqual(
    json.changePoints.map((p) => p.new),
    [true, true],
  );
  assert.equal(JSON.parse(readFileSync(state, 'utf8')).reported.length, 2);

  // More runs arrive; the step is still there (its index may move a run or two): not again.
  writeFileSync(data, serializeBenchmarkData(history(230)));
  const second = await detect(args, env);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(comments.length, 1);
  assert.match(second.stdout, /0 new change point\(s\) \(2 in the history\)[\s\S]*Nothing new since the last report/);
  assert.equal(JSON.parse(readFileSync(state, 'utf8')).reported.length, 2);
});

test('reads the history from a pages branch, and an absent branch is an empty history', async () => {
  const dir = tempDir('perfgate-detect-branch-');
  const remote = join(dir, 'remote.git');
  const work = join(dir, 'work');
  await run('git', ['init', '-q', '--bare', remote]);
  await run('git', ['init', '-q', '-b', 'gh-pages', work]);
  const absent = await detect(['--repo', remote]);
  assert.equal(absent.code, 0, absent.stderr);
  assert.match(absent.stdout, /No change point/);
  await run('mkdir', ['-p', join(work, 'dev/bench')]);
  writeFileSync(join(work, 'dev/bench/data.js'), serializeBenchmarkData(history(200)));
  const git = (...args) => run('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
  await git('add', '.');
  await git('commit', '-q', '-m', 'data');
  await git('push', '-q', remote, 'gh-pages');
  const found = await detect(['--repo', remote]);
  assert.equal(found.code, 0, found.stderr);
  assert.match(found.stdout, /2 change point\(s\)[\s\S]*Source: dev\/bench\/data\.js on branch gh-pages/);
});

test('a damaged state file or a bad option is refused with the fix', async () => {
  const dir = tempDir('perfgate-detect-bad-');
  writeFileSync(join(dir, 'data.js'), serializeBenchmarkData(history(60)));
  writeFileSync(join(dir, 'state.json'), '{"reported": 3}');
  const damaged = await detect(['--data', join(dir, 'data.js'), '--state', join(dir, 'state.json')]);
  assert.equal(damaged.code, 1);
  assert.match(damaged.stderr, /reported change points .*state\.json are unreadable: .*move the file aside/);
  const bad = await detect(['--max-p', '2', '--record']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--record needs --state FILE[\s\S]*--max-p must be a number in \(0, 1\]/);
});
