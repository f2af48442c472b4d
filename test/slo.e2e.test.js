// `bench` with SLOs: each reported met or broken with its value, kept in result.json, a broken one
// exits 1 unless --slo-report-only, and a bad one is refused before anything is measured.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { readResult, runBench, tempDir, writeConfig } from './helpers/harness.js';

const dir = tempDir('perfgate-slo-');
after(() => rmSync(dir, { recursive: true, force: true }));

const suite = (slo) =>
  writeConfig(dir, {
    variants: ['node-http'],
    scenarios: ['hello'],
    connections: [2],
    duration: 0.5,
    warmup: 0.2,
    slo,
  });

test('a broken SLO is reported with its value and fails the run; --slo-report-only reports it and passes', async () => {
  // No server answers in a nanosecond; none fails a request in a quiet half second.
  const config = suite({ 'p99 latency': '< 0.000001 ms', 'error %': '< 50' });
  const out = join(dir, 'broken');
  const run = await runBench(['--config', config, '--no-history', '--out', out]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stdout,
    /SLOs:\n- node-http hello c=2: p99 latency [\d.]+ ms, < 0\.000001 ms: BROKEN\n- node-http hello c=2: error % [\d.]+ %, < 50 %: met/,
  );
  assert.match(run.stderr, /1 SLO broken \(--slo-report-only to report without failing\)/);
  const [benchmark] = readResult(out).benchmarks;
  assert.deepEqual(
    benchmark.slo.map(({ metric, met }) => [metric, met]),
    [
      ['p99 latency', false],
      ['error %', true],
    ],
  );
  const reported = await runBench([
    '--config',
    config,
    '--no-history',
    '--out',
    join(dir, 'reported'),
    '--slo-report-only',
  ]);
  assert.equal(reported.code, 0, reported.stderr);
  assert.match(reported.stdout, /: BROKEN/);
});

test('an SLO on an unknown metric or with a malformed bound is refused, naming the fix', async () => {
  const run = await runBench(['--config', suite({ p99: '< 50 ms', 'error %': 'below 1' }), '--no-history']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /slo: "p99" is not a metric: use one of req\/s, p50 latency, p99 latency/);
  assert.match(run.stderr, /slo: "error %": "below 1" is not a bound: write <, <=, > or >=, a number and its unit/);
});
