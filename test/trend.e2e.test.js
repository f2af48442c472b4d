// `npm run trend` for real: a temporary repository of this project's servers with two release
// tags and a commit after them, the baseline pinned to the older one on a gh-pages branch (as
// bench-main reads it), measured in duet against it (short rounds, one benchmark). It must stay
// on the pinned baseline, append the relative lines to the history and leave nothing behind.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBenchmarkData } from '../bench/history/format.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { GIT_ENV, makeServersRepository } from './helpers/servers-repo.js';

// A pages repository whose gh-pages holds dev/bench/baselines.json pinning `anchor`.
function pagesWithBaseline(anchor) {
  const pages = tempDir('perfgate-trend-pages-');
  const git = (...args) => execFileSync('git', args, { cwd: pages, env: { ...process.env, ...GIT_ENV } });
  git('init', '-q', '-b', 'gh-pages');
  mkdirSync(join(pages, 'dev/bench'), { recursive: true });
  writeFileSync(
    join(pages, 'dev/bench/baselines.json'),
    JSON.stringify({
      format: 'perfgate-baselines',
      version: 1,
      anchors: [{ ...anchor, pinnedAt: '2026-11-01T00:00:00Z' }],
    }),
  );
  git('add', '.');
  git('commit', '-qm', 'pinned');
  return pages;
}

test('trend takes the pinned baseline from gh-pages, measures HEAD against it in duet and appends the ratios to the history', () => {
  const { repo, shas } = makeServersRepository(['same', 'same']);
  execFileSync('git', ['tag', 'v1.0.0', shas[0]], { cwd: repo });
  execFileSync('git', ['tag', 'v1.1.0', shas[1]], { cwd: repo });
  const pages = pagesWithBaseline({ ref: 'v1.0.0', sha: shas[0] });
  const dir = tempDir();
  const tmp = tempDir('perfgate-trend-tmp-');
  const history = join(dir, 'data.js');
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/trend.mjs'),
      '--repo',
      repo,
      '--variant',
      'node-http',
      '--scenario',
      'hello',
      '--connections',
      '10',
      '--duration',
      '0.3',
      '--warmup',
      '0.1',
      '--rounds',
      '6',
      '--history',
      history,
      '--baselines-from',
      pages,
      '--out',
      join(dir, 'out'),
    ],
    { encoding: 'utf8', env: { ...process.env, ...GIT_ENV, GITHUB_STEP_SUMMARY: '', TMPDIR: tmp } },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /the configured baseline is now v1\.1\.0 .* stays pinned to v1\.0\.0/);
  assert.match(run.stdout, /^Time: \d+ s for 1 benchmark\(s\) in duet, 6 rounds in all/m);
  const baselines = JSON.parse(readFileSync(join(dir, 'baselines.json'), 'utf8'));
  assert.deepEqual(
    baselines.anchors.map((anchor) => [anchor.ref, anchor.sha]),
    [['v1.0.0', shas[0]]],
  );
  const data = parseBenchmarkData(readFileSync(history, 'utf8'), history);
  assert.deepEqual(Object.keys(data.entries), ['perfgate throughput vs baseline', 'perfgate latency vs baseline']);
  const [entry] = data.entries['perfgate latency vs baseline'];
  assert.equal(entry.commit.id, shas[2]);
  assert.deepEqual(entry.benches.map((bench) => bench.name).sort(), [
    'node-http hello c=10 - CPU µs/request vs baseline',
    'node-http hello c=10 - p99 latency vs baseline',
  ]);
  for (const bench of entry.benches) {
    assert.equal(bench.unit, '%');
    const [, low, high] = /^95% CI (\S+) to (\S+)$/.exec(bench.range).map(Number);
    assert.ok(low <= bench.value && bench.value <= high, `${bench.value} in ${bench.range}`);
  }
  const comparison = JSON.parse(readFileSync(join(dir, 'out/comparison.json'), 'utf8'));
  assert.equal(comparison.benchmarks[0].mode, 'duet');
  assert.equal(comparison.benchmarks[0].rounds, 6);
  assert.deepEqual(leftoverServers(), []);
  assert.deepEqual(readdirSync(tmp), [], 'no side left behind');
  assert.equal(execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').length, 1);
});
