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
  expectedChange,
  fittedLoops,
  loopsForSlowdown,
  measureLoopSeconds,
  pooledChange,
  summarizeTrials,
  trialOutcome,
} from '../bench/comparison/calibration/trials.js';
import { vegetaUnavailable } from '../bench/measurement/engines/vegeta.js';
import { suiteRunOutcome, suiteRunsMarkdown, summarizeSuiteRuns } from '../bench/comparison/calibration/suite-runs.js';
import { leftoverServers, PROJECT_ROOT, tempDir, writeConfig } from './helpers/harness.js';

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

test("the trials' loop count is fitted over every check of the benchmark, of every size", () => {
  // Checks of a 3 % size (3211: +4.2 %, 2372: +2.3 %, 2612: +0.9 %) and a 5 % one (5464: +4.8 %):
  // the last 3 % check alone would keep 2612 loops, the fit says 0.00903 % per loop.
  const checks = [
    { loops: 3211, cpuChange: 0.042 },
    { loops: 2372, cpuChange: 0.023 },
    { loops: 2612, cpuChange: 0.009 },
    { loops: 5464, cpuChange: 0.048 },
  ];
  const slope =
    (3211 * 0.042 + 2372 * 0.023 + 2612 * 0.009 + 5464 * 0.048) / (3211 ** 2 + 2372 ** 2 + 2612 ** 2 + 5464 ** 2);
  assert.equal(fittedLoops(checks, 0.03), Math.round((1 / 0.97 - 1) / slope));
  assert.equal(fittedLoops(checks, 0.05), Math.round((1 / 0.95 - 1) / slope));
  assert.ok(fittedLoops(checks, 0.03) < fittedLoops(checks, 0.05));
  assert.equal(fittedLoops([], 0.05), null, 'no check yet');
  assert.equal(fittedLoops([{ loops: 1000, cpuChange: -0.01 }], 0.05), null, 'no change to scale from');
});

test("the trials' size comes from the fixed-round checks' fit, with an interval from the checks' own", () => {
  const checks = [
    { loops: 1000, cpuChange: 0.03, cpuCi: [0.01, 0.05] },
    { loops: 2000, cpuChange: 0.05, cpuCi: [0.03, 0.07] },
    { loops: 3000, cpuChange: 0.2, cpuCi: null },
  ];
  const expected = expectedChange(checks, 1500);
  // Slope (1000·0.03 + 2000·0.05) / (1000² + 2000²); each check's standard error 0.02 / 1.96.
  const slope = 130 / 5e6;
  const half = 1.96 * Math.sqrt((5e6 * (0.02 / 1.96) ** 2) / 5e6 ** 2) * 1500;
  assert.equal(expected.checks, 2, 'a check without an interval is left out');
  assert.ok(Math.abs(expected.change - slope * 1500) < 1e-12);
  assert.ok(
    Math.abs(expected.ci[0] - (slope * 1500 - half)) < 1e-12 &&
      Math.abs(expected.ci[1] - (slope * 1500 + half)) < 1e-12,
  );
  assert.equal(expectedChange([{ loops: 1000, cpuChange: 0.01, cpuCi: null }], 1000), null);
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
// A benchmark entry of comparison.json; `first`: the verdict of a first run that the second decided.
const benchmark = (verdict, change, { status = 'ok', first, seconds = 60 } = {}) => ({
  status,
  rounds: 6,
  elapsedMs: seconds * 1000,
  reason: status === 'ok' ? undefined : 'crashed',
  ...(status === 'ok' ? { verdict: { verdict, calledBy: 'req/s', notes: [] } } : {}),
  verdicts: status === 'ok' ? { 'req/s': { verdict, change, ci: [change - 0.02, change + 0.02] } } : undefined,
  ...(first
    ? { confirmation: { repeated: false, first: { verdict: { verdict: first }, rounds: 6, elapsedMs: 30_000 } } }
    : {}),
});

test('A/A false alarms are slowdowns after the confirmation; detection per size by its target; failures count apart', () => {
  const injected = (slowdown, ...args) => trialOutcome('injected', benchmark(...args), PINNING, 'duet', slowdown);
  const trials = [
    trialOutcome('A/A', benchmark('no change', 0.001), PINNING),
    trialOutcome('A/A', benchmark('no change', 0.001, { first: 'small regression' }), PINNING),
    trialOutcome('A/A', benchmark('small regression', -0.02, { first: 'small regression' }), PINNING),
    trialOutcome('A/A', benchmark('improvement', 0.04), PINNING),
    trialOutcome('A/A', benchmark('inconclusive', -0.03), PINNING),
    trialOutcome('A/A', benchmark(null, null, { status: 'failed' }), PINNING),
    injected(0.05, 'regression', -0.05),
    injected(0.05, 'small regression', -0.04),
    injected(0.03, 'small regression', -0.03, { seconds: 150, first: 'regression' }),
    injected(0.03, 'inconclusive', -0.04, { seconds: 180 }),
  ];
  assert.equal(trials[1].firstVerdict, 'small regression');
  assert.equal(trials[8].seconds, 180, 'the time to a verdict counts the first run too');
  const summary = summarizeTrials(trials, { band: 0.05, budgetSeconds: 180 });
  assert.deepEqual(summary.aa, {
    runs: 5,
    slower: 1,
    slowerRate: 0.2,
    firstRunSlower: 2,
    firstRunSlowerRate: 0.4,
    faster: 1,
    firstRunFaster: 1,
    inconclusive: 1,
  });
  const [three, five] = summary.injected;
  assert.deepEqual(
    [three.slowdown, three.detected, three.runs, three.calledAs, three.target, three.resolvedWithinBudget],
    [0.03, 1, 2, ['regression', 'small regression'], 0.8, 1],
  );
  assert.deepEqual(
    [five.slowdown, five.detected, five.runs, five.regression, five.smallRegression, five.calledAs, five.target],
    [0.05, 1, 2, 1, 1, ['regression'], 0.95],
  );
  assert.ok(Math.abs(summary.suite.cleanRate - 0.8 ** 12) < 1e-12);
  assert.equal(summary.failed, 1);
  assert.equal(summary.medianSecondsToVerdict, 60);
  const sizing = (loops, cpuChange) => ({
    loops,
    rounds: 6,
    cpuChange,
    cpuCi: [0.04, 0.06],
    change: -0.051,
    ci: [-0.07, -0.03],
  });
  const injection = (loops) => ({
    loops,
    cpuMicrosPerRequest: 100,
    requestsPerSecond: 10000,
    loopSeconds: 1e-9,
    sizings: [sizing(loops, 0.052)],
    check: sizing(loops, 0.052),
  });
  const markdown = calibrationMarkdown({
    benchmark: 'express json c=100',
    mode: 'duet',
    injections: [
      {
        slowdown: 0.03,
        injection: {
          ...injection(3093),
          fitted: true,
          check: sizing(2612, 0.009),
          expected: { change: 0.0305, ci: [0.026, 0.035], checks: 3 },
        },
      },
      {
        slowdown: 0.05,
        injection: injection(5263),
        achieved: [{ metric: 'CPU µs/request', rounds: 14, change: 0.054, ci: [0.041, 0.067] }],
      },
    ],
    summary,
    trials,
    neighbour: { percent: 50, cores: [1], pinned: true, tool: 'stress-ng --cpu-load 50' },
    pooledAA: [{ metric: 'CPU µs/request', rounds: 12, change: 0.001, ci: [-0.004, 0.006] }],
  });
  assert.match(markdown, /## perfgate calibration: express json c=100, duet mode, 50 % neighbour/);
  assert.match(
    markdown,
    /Neighbour: a CPU hog at 50 % duty cycle \(stress-ng --cpu-load 50\) on core 1, the server cores/,
  );
  assert.match(markdown, /Injected 3 %: 3093 loop iterations per request/);
  assert.match(markdown, /Injected 5 %: 5263 loop iterations per request/);
  assert.match(markdown, /the trials use the fit over every check of this benchmark: 3093 loops/);
  assert.match(
    markdown,
    /Injected 3 %: 3093 loop iterations .*achieved in a fixed 6-round check of 2612 loops: CPU µs\/request \+0\.9 %/,
  );
  assert.match(
    markdown,
    /Achieved over the injected trials: CPU µs\/request \+5\.4 % \[\+4\.1 %, \+6\.7 %\] over 14 rounds/,
  );
  assert.match(
    markdown,
    /Size of the trials, from the 3 fixed-round checks of this benchmark: CPU µs\/request \+3\.0 % \[\+2\.6 %, \+3\.5 %\]/,
  );
  assert.match(
    markdown,
    /Pooled A\/A change \(side bias; target within ±0\.5 %\): CPU µs\/request \+0\.1 % \[-0\.4 %, \+0\.6 %\] over 12 rounds/,
  );
  // The targets as check lines.
  assert.match(markdown, /\| 3 % slowdown called regression or small regression \| 1 of 2 \(50 %\) \| ≥ 80 % \| ❌ \|/);
  assert.match(markdown, /\| 5 % slowdown called regression \| 1 of 2 \(50 %\) \| ≥ 95 % \| ❌ \|/);
  assert.match(
    markdown,
    /\| A\/A called slower \(regression or small regression\) \| 1 of 5 \(20 %\); by a first run, before the confirmation: 2 \(40 %\) \| ≤ 5 % \| ❌ \|/,
  );
  assert.match(
    markdown,
    /\| A\/A suite of 12 with no slower call \(derived: \(1 − rate\)\^12\) \| 7 % \(first runs alone: 0 %\) \| ≥ 90 % \| ❌ \|/,
  );
  assert.match(markdown, /\| median time to a verdict, with a 50 % neighbour \| 60 s \(max 180 s\) \| ≤ 90 s \| ✅ \|/);
  assert.match(markdown, /\| 3 % slowdown resolved within the 180 s budget \| 1 of 2, median 180 s \| ≥ 80 % \| ❌ \|/);
  assert.match(markdown, /\| 2 \| A\/A \| no change \| small regression \|/);
  assert.match(markdown, /\| 6 \| A\/A \| failed \|/);
  assert.match(markdown, /Pinning: server 1, load 0/);
});

test('a whole-suite A/A run is clean only when no benchmark is called slower after its confirmation, and none failed', () => {
  const run = (benchmarks, seconds) =>
    suiteRunOutcome(
      { pinning: PINNING, benchmarks: benchmarks.map((each, index) => ({ id: `b${index + 1}`, ...each })) },
      seconds,
    );
  const runs = [
    run([benchmark('no change', 0), benchmark('no change', 0.001, { first: 'small regression' })], 240),
    run([benchmark('small regression', -0.02, { first: 'regression' }), benchmark('improvement', 0.03)], 320),
    run([benchmark('no change', 0), benchmark(null, null, { status: 'failed' })], 200),
  ];
  assert.deepEqual(
    runs.map((each) => [each.clean, each.slower, each.firstRunSlower, each.faster, each.firstRunFaster, each.failed]),
    [
      [true, [], ['b2'], 0, 0, 0],
      [false, ['b1'], ['b1'], 1, 1, 0],
      [false, [], [], 0, 0, 1],
    ],
  );
  const summary = summarizeSuiteRuns(runs);
  assert.deepEqual([summary.runs, summary.clean, summary.medianSeconds, summary.maxSeconds], [3, 1, 240, 320]);
  assert.deepEqual(
    [summary.perBenchmark.runs, summary.perBenchmark.slower, summary.perBenchmark.firstRunSlower],
    [5, 1, 2],
  );
  const markdown = suiteRunsMarkdown({ suite: 'default', summary, runs });
  assert.match(
    markdown,
    /\| whole-suite A\/A runs with no benchmark called slower \| 1 of 3 \(33 %\); fewer than the 10 runs the target asks \| ≥ 90 % of ≥ 10 runs \| ❌ \|/,
  );
  assert.match(
    markdown,
    /\| time of a whole-suite comparison \| median 4 min 00 s \(max 5 min 20 s\) \| ≤ 5 min 00 s \| ✅ \|/,
  );
  assert.match(markdown, /\| 2 \| 2 \| b1 \| b1 \| 1 \(1\) \| 0 \| 0 \| 5 min 20 s \|/);
  // With a tenant, as on a hosted runner, the suite's target is the hosted mode's.
  assert.match(
    suiteRunsMarkdown({
      suite: 'default',
      summary,
      runs,
      tenant: { percent: 25, cores: [0, 1], cycleSeconds: [0.4, 4] },
    }),
    /\| time of a whole-suite comparison \| median 4 min 00 s \(max 5 min 20 s\) \| ≤ 10 min 00 s \| ✅ \|/,
  );
});

// calibrate with short rounds and a small budget: what these tests check is the flow, not the rates.
const runCalibrate = (args, out) =>
  spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/calibrate.mjs'),
      ...args,
      '--duration',
      '0.5',
      '--warmup',
      '0.2',
      '--budget',
      '4',
      '--out',
      out,
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );

// The whole-suite runs at their smallest: one A/A comparison of a one-benchmark suite.
test('npm run calibrate --suite-runs compares the whole suite A/A and writes the report and every run', () => {
  const out = tempDir();
  const config = writeConfig(out, { name: 'tiny', variants: ['node-http'], scenarios: ['hello'], connections: [10] });
  const run = runCalibrate(['--suite-runs', '1', '--config', config], out);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /tiny suite A\/A \[1\/1\]: /);
  const { suiteRuns } = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
  assert.equal(suiteRuns.suite, 'tiny');
  assert.deepEqual(
    suiteRuns.runs.map((each) => each.trials.map((trial) => trial.benchmark)),
    [['node-http hello c=10']],
  );
  assert.match(
    readFileSync(join(out, 'calibration.md'), 'utf8'),
    /## perfgate calibration: the whole tiny suite, A\/A/,
  );
  assert.ok(JSON.parse(readFileSync(join(out, 'suite-aa-1', 'comparison.json'), 'utf8')).benchmarks.length === 1);
  assert.deepEqual(leftoverServers(), []);
});

// The script end to end at its smallest: it sizes and checks the injection, runs one trial of
// each kind and keeps what it measured. Which verdicts come out is the machine's business.
test('npm run calibrate runs A/A and injected trials and writes the report and every trial', () => {
  const out = tempDir();
  const run = runCalibrate(
    [
      '--runs',
      '1',
      '--sizings',
      '1',
      '--benchmark',
      'node-http:hello:10',
      '--modes',
      'duet',
      '--slowdown',
      '5,3',
      '--min-rounds',
      '2',
    ],
    out,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stderr,
    /node-http hello c=10: \d+ loop iterations per request achieve, duet: CPU µs\/request [-\d.]+ %, req\/s [-\d.]+ %/,
  );
  assert.match(
    run.stderr,
    /duet \[1\/1\] A\/A: .*\n.*duet \[1\/1\] injected 3\.0 %: .*\n.*duet \[1\/1\] injected 5\.0 %: /,
  );
  const calibration = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
  const [only] = calibration.calibrations;
  assert.equal(only.benchmark, 'node-http hello c=10');
  assert.equal(only.mode, 'duet');
  assert.deepEqual(calibration.slowdowns, [0.03, 0.05]);
  assert.equal(calibration.neighbour, null);
  // Per run: the A/A trial, then one per size, smallest first.
  assert.deepEqual(
    only.trials.map((trial) => [trial.kind, trial.slowdown]),
    [
      ['A/A', null],
      ['injected', 0.03],
      ['injected', 0.05],
    ],
  );
  assert.deepEqual(
    only.summary.injected.map((size) => size.slowdown),
    [0.03, 0.05],
  );
  // Every trial is planned like the first one, not on the load core the first left the process on.
  assert.equal(new Set(only.trials.map((trial) => trial.pinning)).size, 1);
  // One sizing per size (--sizings 1), which is also duet's check of the achieved change.
  for (const { injection } of only.injections) {
    assert.equal(injection.sizings.length, 1);
    assert.deepEqual(injection.check, injection.sizings[0]);
  }
  assert.ok(only.injections[0].injection.loops < only.injections[1].injection.loops);
  for (const label of [
    'probe',
    'size-1-3pct',
    'size-1-5pct',
    'duet-aa-1',
    'duet-injected-3pct-1',
    'duet-injected-5pct-1',
  ]) {
    const { samples } = JSON.parse(readFileSync(join(out, 'node-http-hello-10', label, 'comparison.json'), 'utf8'))
      .benchmarks[0];
    assert.ok(samples.head.length >= 1 && samples.head.length === samples.base.length, label);
  }
  const markdown = readFileSync(join(out, 'calibration.md'), 'utf8');
  assert.match(markdown, /\| 3 % slowdown called regression or small regression \|/);
  assert.match(markdown, /\| 5 % slowdown called regression \|/);
  assert.match(markdown, /\| A\/A suite of 12 with no slower call/);
  assert.deepEqual(leftoverServers(), []);
});

// The stall calibration at its smallest: one A/A and one stalled duet trial of an r= benchmark.
test('npm run calibrate --stall runs A/A and stalled trials at an offered rate and writes the report', {
  skip: vegetaUnavailable() ?? false,
}, () => {
  const out = tempDir();
  const run = runCalibrate(
    [
      '--stall',
      '30ms/20',
      '--benchmark',
      'node-http:hello:r=200',
      '--engine',
      'vegeta',
      '--runs',
      '1',
      '--modes',
      'duet',
      '--min-rounds',
      '2',
    ],
    out,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stderr,
    /node-http hello r=200 duet \[1\/1\] A\/A: .*\n.*node-http hello r=200 duet \[1\/1\] stall: /,
  );
  const calibration = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
  assert.deepEqual(calibration.stall, { ms: 30, every: 20, variable: '30/20' });
  const [only] = calibration.calibrations;
  assert.deepEqual(
    only.trials.map((trial) => trial.kind),
    ['A/A', 'stall'],
  );
  const stalled = JSON.parse(
    readFileSync(join(out, 'node-http-hello-r-200', 'duet-stall-1', 'comparison.json'), 'utf8'),
  );
  assert.match(stalled.sides.head.description, /PERFGATE_INJECT_STALL=30\/20/);
  assert.match(
    readFileSync(join(out, 'calibration.md'), 'utf8'),
    /\| a 30 ms stall every 20 requests called regression or small regression \|/,
  );
  assert.deepEqual(leftoverServers(), []);
});

test('npm run calibrate refuses a malformed stall and a stall on a connection tier, naming the fix', () => {
  const out = tempDir();
  const malformed = runCalibrate(['--stall', '20ms-200', '--benchmark', 'node-http:hello:r=200'], out);
  assert.notEqual(malformed.status, 0);
  assert.match(malformed.stderr, /--stall: stall "20ms-200" is not understood: use "<ms>\/<every>"/);
  const tier = runCalibrate(['--stall', '20ms/200', '--benchmark', 'node-http:hello:10'], out);
  assert.notEqual(tier.status, 0);
  assert.match(tier.stderr, /"node-http:hello:10" is not at an offered rate.*r=RATE/);
});
