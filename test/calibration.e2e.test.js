// The arithmetic and bookkeeping of npm run calibrate, and the script run at its smallest;
// the calibration is a benchmark script and its numbers go into reports, not into assertions.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  calibrationMarkdown,
  correctedLoops,
  loopsForSlowdown,
  measureLoopSeconds,
  pooledChange,
  summarizeTrials,
  trialOutcome,
} from '../bench/calibration/index.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';

test('the injected work is the per-request CPU time a slowdown adds, in loop iterations', () => {
  // 100 CPU µs per request; 5 % slower needs 100/0.95 - 100 = 5.26 µs more.
  assert.equal(loopsForSlowdown({ cpuMicrosPerRequest: 100, loopSeconds: 1e-9, slowdown: 0.05 }), 5263);
  assert.equal(
    loopsForSlowdown({ cpuMicrosPerRequest: 0.001, loopSeconds: 1, slowdown: 0.05 }),
    1,
    'at least one iteration',
  );
});

test('a sizing that misses the intended change is corrected from all sizings so far, one close enough is kept', () => {
  // 5 % slower req/s is 5.26 % more CPU µs/request; 1000 loops that achieved 13.2 % are 2.5 times too many.
  assert.equal(correctedLoops([{ loops: 1000, cpuChange: 0.1316 }], 0.05), 400);
  assert.equal(correctedLoops([{ loops: 1000, cpuChange: 0.02 }], 0.05), 2632);
  // Two noisy checks: the change per loop is fitted through the origin, (1000·0.08 + 500·0.03) / (1000² + 500²).
  assert.equal(
    correctedLoops(
      [
        { loops: 1000, cpuChange: 0.08 },
        { loops: 500, cpuChange: 0.03 },
      ],
      0.05,
    ),
    693,
  );
  assert.equal(correctedLoops([{ loops: 1000, cpuChange: 0.055 }], 0.05), null, 'within 20 % of the intended change');
  assert.equal(correctedLoops([{ loops: 1000, cpuChange: -0.01 }], 0.05), null, 'no change to scale from');
});

test('the pooled A/A change over every round shows a side bias', () => {
  const rounds = (ratios) => ({
    samples: {
      base: ratios.map(() => ({ cpuMicrosPerRequest: 100 })),
      head: ratios.map((ratio) => ({ cpuMicrosPerRequest: 100 * ratio })),
    },
  });
  const pooled = pooledChange([rounds([1.01, 1.03]), rounds([1.02, 1.02])]);
  assert.equal(pooled.rounds, 4);
  assert.ok(Math.abs(pooled.change - 0.02) < 1e-3);
  assert.ok(pooled.ci[0] > 0 && pooled.ci[1] < 0.04, 'a 2 % bias is outside ±0.5 %');
});

test('the loop speed is a positive time per iteration', () => {
  const seconds = measureLoopSeconds({ iterations: 10000, repeats: 3 });
  assert.ok(seconds > 0 && seconds < 1e-3);
});

const PINNING = { method: 'taskset', load: [0], server: [1] };
const benchmark = (verdict, change, status = 'ok') => ({
  status,
  rounds: 6,
  elapsedMs: 60000,
  reason: status === 'ok' ? undefined : 'crashed',
  verdicts: status === 'ok' ? { 'req/s': { verdict, change, ci: [change - 0.02, change + 0.02] } } : undefined,
});

test('false alarms are A/A changes either way; detections are injected regressions; failures count apart', () => {
  const trials = [
    trialOutcome('A/A', benchmark('no change', 0.001), PINNING),
    trialOutcome('A/A', benchmark('improvement', 0.04), PINNING),
    trialOutcome('A/A', benchmark('inconclusive', -0.03), PINNING),
    trialOutcome('A/A', benchmark(null, null, 'failed'), PINNING),
    trialOutcome('injected', benchmark('regression', -0.05), PINNING),
    trialOutcome('injected', benchmark('inconclusive', -0.04), {
      method: 'none',
      reason: 'only 1 core available: server and load generator share it',
    }),
  ];
  const summary = summarizeTrials(trials);
  assert.deepEqual(summary.aa, { runs: 3, falseAlarms: 1, falseAlarmRate: 1 / 3, inconclusive: 1 });
  assert.deepEqual(summary.injected, { runs: 2, detected: 1, detectionRate: 0.5, inconclusive: 1 });
  assert.equal(summary.failed, 1);
  assert.equal(summary.medianSecondsToVerdict, 60);
  const markdown = calibrationMarkdown({
    benchmark: 'express json c=100',
    mode: 'duet',
    slowdown: 0.05,
    summary,
    trials,
    targets: { falseAlarmRate: 0.05, detectionRate: 0.9, seconds: 180 },
    injection: {
      loops: 5263,
      cpuMicrosPerRequest: 100,
      requestsPerSecond: 10000,
      loopSeconds: 1e-9,
      check: { rounds: 4, cpuChange: 0.052, cpuCi: [0.04, 0.06], change: -0.051, ci: [-0.07, -0.03] },
    },
    pooledAA: [{ metric: 'CPU µs/request', rounds: 12, change: 0.001, ci: [-0.004, 0.006] }],
  });
  assert.match(markdown, /## perfgate calibration: express json c=100, duet mode/);
  assert.match(
    markdown,
    /Pooled A\/A change \(side bias; target within ±0\.5 %\): CPU µs\/request \+0\.1 % \[-0\.4 %, \+0\.6 %\] over 12 rounds/,
  );
  assert.match(markdown, /false alarms 1 \(33 %\)/);
  assert.match(markdown, /detected 1 \(50 %\)/);
  assert.match(
    markdown,
    /achieved in a fixed 4-round check: CPU µs\/request \+5\.2 % \[\+4\.0 %, \+6\.0 %\], req\/s -5\.1 % \[-7\.0 %, -3\.0 %\]/,
  );
  assert.match(markdown, /\| 4 \| A\/A \| failed \|/);
  assert.match(
    markdown,
    /Pinning: server 1, load 0; none \(only 1 core available: server and load generator share it\)/,
  );
});

// The script end to end at its smallest: it sizes and checks the injection, runs one trial of
// each kind and keeps what it measured. Which verdicts come out is the machine's business.
test('npm run calibrate runs A/A and injected trials and writes the report and every trial', () => {
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/calibrate.mjs'),
      '--runs',
      '1',
      '--sizings',
      '1',
      '--benchmark',
      'node-http:hello:10',
      '--modes',
      'duet',
      '--duration',
      '0.5',
      '--warmup',
      '0.2',
      '--min-rounds',
      '2',
      '--budget',
      '4',
      '--out',
      out,
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stderr,
    /node-http hello c=10: \d+ loop iterations per request achieve, duet: CPU µs\/request [-\d.]+ %, req\/s [-\d.]+ %/,
  );
  assert.match(run.stderr, /duet \[1\/1\] A\/A: .*\n.*duet \[1\/1\] injected: /);
  const calibration = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
  const [only] = calibration.calibrations;
  assert.equal(only.benchmark, 'node-http hello c=10');
  assert.equal(only.mode, 'duet');
  assert.deepEqual(
    only.trials.map((trial) => trial.kind),
    ['A/A', 'injected'],
  );
  // Every trial is planned like the first one, not on the load core the first left the process on.
  assert.equal(new Set(only.trials.map((trial) => trial.pinning)).size, 1);
  // One sizing (--sizings 1), which is also duet's check of the achieved change.
  assert.equal(only.injection.sizings.length, 1);
  assert.deepEqual(only.injection.check, only.injection.sizings[0]);
  for (const label of ['probe', 'size-1', 'duet-aa-1', 'duet-injected-1']) {
    const { samples } = JSON.parse(readFileSync(join(out, 'node-http-hello-10', label, 'comparison.json'), 'utf8'))
      .benchmarks[0];
    assert.ok(samples.head.length >= 1 && samples.head.length === samples.base.length, label);
  }
  assert.match(readFileSync(join(out, 'calibration.md'), 'utf8'), /false alarm/i);
  assert.deepEqual(leftoverServers(), []);
});
