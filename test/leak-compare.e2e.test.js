// npm run compare with a soak, for real: two commits whose /hello builds 1 KB per request, the
// base dropping it and the head keeping it for good. The head leaks where the base does not, so
// the check fails and says so; which side is faster is not asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';
import {
  baseServersRepository,
  GIT_ENV,
  makeHelloDropKilobyte,
  makeHelloKeepKilobyte,
} from './helpers/servers-repo.js';

function leakingRepository() {
  const { repo, git } = baseServersRepository();
  makeHelloDropKilobyte(repo);
  git('commit', '-qam', 'hello builds 1 KB per request');
  makeHelloKeepKilobyte(repo);
  git('commit', '-qam', 'hello keeps it');
  return repo;
}

test('a head that keeps 1 KB per request fails a soaked comparison as a leak the base does not have', () => {
  const repo = leakingRepository();
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/compare.mjs'),
      ...['--repo', repo, '--base', 'main~1', '--head', 'main', '--variant', 'node-http', '--scenario', 'hello'],
      ...['--connections', '4', '--duration', '3', '--warmup', '0.3', '--soak-every', '0.25'],
      ...['--min-rounds', '2', '--max-rounds', '2', '--no-profile', '--no-confirm', '--no-alone', '--out', out],
      // A short soak's plain server still grows by up to about 1 MB per 10,000 requests (late warm-up).
      ...['--leak-threshold', '3'],
    ],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...GIT_ENV, CI: 'true', GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '' },
    },
  );
  assert.equal(run.status, 1, run.stderr);
  const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
  const [benchmark] = comparison.benchmarks;
  assert.ok(
    benchmark.samples.head.every((sample) => sample.heapTrend?.length >= 1),
    'every round read its trend',
  );
  const [leak] = comparison.gate.leaks;
  assert.equal(leak.id, benchmark.id);
  // 1 KB kept per request: about 10 MB per 10,000 requests, within a factor of two.
  const growth = leak.head.growthBytesPer10kRequests;
  assert.ok(growth > 5e6 && growth < 2e7, `1 KB kept per request read as ${growth} B per 10,000 requests`);
  assert.equal(comparison.gate.leakThreshold, 3e6);
  assert.ok(leak.base.interval[0] < 3e6, 'the base, which drops it, does not leak');
  assert.match(
    run.stdout,
    /The head leaks \d+\.\d MB per 10,000 requests \(.*\) in node-http hello c=4; the base does not/,
  );
  assert.match(readFileSync(join(out, 'comparison.md'), 'utf8'), /the heap grows .* on the head, .* on the base/);
  assert.deepEqual(leftoverServers(), []);
});
