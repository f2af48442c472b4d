// The interleaved sampling loop and the report, on synthetic measurements: no servers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { escapeMarkdown as escapeCell } from '../bench/core/text.js';
import { compareInterleaved, NO_CHANGE_MARGINS, overallVerdict, sequentialRound } from '../bench/comparison/rounds.js';
import { benchmarkMode } from '../bench/comparison/run-comparison.js';
import { CONFIRMING_RUN } from '../bench/comparison/confirm.js';
import { seededRandom } from '../bench/stats/index.js';

import { defaultBands } from '../bench/results/metrics.js';
import { scriptedRounds } from './helpers/simulated-rounds.js';

const thresholds = defaultBands();

// A fake measurement: req/s around `means[side]` with relative noise, p99 and CPU µs per
// request inversely so. Each measurement takes one second of a fake clock, so a budget
// counts measurements. `measure` is one side's; `measureRound` a sequential round of both.
function fakeMeasure(means, noise, seed = 1) {
  const random = seededRandom(seed);
  const order = [];
  let clock = 0;
  const now = () => clock;
  const measure = async (side) => {
    order.push(side);
    clock += 1000;
    const requestsPerSecond = means[side] * (1 + noise * (random() - 0.5) * 2);
    return {
      requestsPerSecond,
      p99LatencyMs: 1e5 / requestsPerSecond,
      cpuMicrosPerRequest: 1e6 / requestsPerSecond,
      errors: 0,
      timeouts: 0,
      clientSaturated,
    };
  };
  let clientSaturated = false;
  return {
    measureRound: sequentialRound(measure),
    order,
    now,
    saturate: () => {
      clientSaturated = true;
    },
  };
}

test('a clear 20 % slowdown is a regression, found after the minimum rounds', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  const result = await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 5, maxRounds: 60 });
  assert.equal(result.verdicts['req/s'].verdict, 'regression');
  assert.equal(result.verdicts['p99 latency'].verdict, 'regression');
  assert.equal(result.stoppedBy, 'resolved');
  assert.equal(result.rounds, 5);
});

test('the same code on both sides is no change', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 10000 }, 0.02);
  const result = await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 5, maxRounds: 60 });
  assert.equal(result.verdicts['req/s'].verdict, 'no change');
});

test('noise wider than the band runs to the budget and says inconclusive', async () => {
  const { measureRound, now } = fakeMeasure({ base: 10000, head: 10000 }, 0.6);
  const result = await compareInterleaved({
    measureRound,
    thresholds,
    budgetMs: 20000,
    minRounds: 5,
    maxRounds: 60,
    now,
  });
  assert.equal(result.stoppedBy, 'budget');
  assert.equal(result.verdicts['req/s'].verdict, 'inconclusive');
});

test('sides alternate order every round (ABBA...)', async () => {
  const { measureRound, order } = fakeMeasure({ base: 100, head: 100 }, 0.01);
  await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 4, maxRounds: 4 });
  assert.deepEqual(order, ['base', 'head', 'head', 'base', 'base', 'head', 'head', 'base']);
});

// The report of one measured benchmark, with a fixed machine and pinning.
const reportOf = (measured, { sides, settings, gate }) =>
  comparisonMarkdown({
    sides,
    settings,
    gate,
    machine: { cpuModel: 'cpu', cores: 2, node: 'v20', kernel: 'k' },
    pinning: { method: 'none', reason: 'test' },
    benchmarks: [{ id: 'node-http hello c=1', status: 'ok', ...measured }],
  });

test('the report escapes names and shows a verdict with its symbol', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  const measured = await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 3, maxRounds: 3 });
  const markdown = reportOf(measured, {
    sides: { base: { description: 'main (abc)' }, head: { description: '<img src=x onerror=alert(1)> | x' } },
    settings: { thresholds, minRounds: 3, maxRounds: 3, budgetSeconds: 1, roundSeconds: 1, warmupSeconds: 0 },
    gate: { failed: true, failThreshold: 0.1, regressions: ['node-http hello c=1'] },
  });
  assert.doesNotMatch(markdown, /<img/);
  assert.match(
    markdown,
    /\| node-http hello c=1 \| req\/s \| [\d,]+ req\/s \| [\d,]+ req\/s \| -\d+\.\d % \| -[\d.]+ % … -[\d.]+ % \| 🔴 regression \|/,
  );
  assert.match(
    markdown,
    /🔴 1 regression; 1 certainly beyond the 10 % gate \(node-http hello c=1\): the check fails\./,
  );
  assert.equal(escapeCell('a|b\n[c](d)'), 'a&#124;b&#10;&#91;c&#93;(d)');
});

test('with paired rounds the report shows the paired change and names the method', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  const measured = await compareInterleaved({
    measureRound,
    thresholds,
    interval: 'paired',
    budgetMs: 1e9,
    minRounds: 6,
    maxRounds: 6,
  });
  const verdict = measured.verdicts['req/s'];
  assert.equal(verdict.interval, 'paired');
  assert.equal(verdict.verdict, 'regression');
  const markdown = reportOf(measured, {
    sides: { base: { description: 'main' }, head: { description: 'branch' } },
    settings: {
      thresholds,
      interval: 'paired',
      minRounds: 6,
      maxRounds: 6,
      budgetSeconds: 1,
      roundSeconds: 1,
      warmupSeconds: 0,
    },
    gate: { failed: true, failThreshold: 0.1, regressions: [] },
  });
  assert.match(
    markdown,
    new RegExp(`\\| req/s \\| [\\d,]+ req/s \\| [\\d,]+ req/s \\| ${(verdict.change * 100).toFixed(1)} % \\|`),
  );
  assert.match(
    markdown,
    /median of the per-round head\/base ratios \(Hodges–Lehmann\), with its signed-rank 95 % interval/,
  );
});

test('the verdict names the metric that called it; CPU µs/request calls it first', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  const result = await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 5, maxRounds: 60 });
  assert.deepEqual(result.verdict, { verdict: 'regression', calledBy: 'CPU µs/request', resolved: true, notes: [] });
  assert.equal(result.verdicts['CPU µs/request'].verdict, 'regression');
});

test('a client-bound benchmark gets its verdict from CPU µs/request, with a note on req/s', async () => {
  const fake = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  fake.saturate();
  const result = await compareInterleaved({
    measureRound: fake.measureRound,
    thresholds,
    budgetMs: 1e9,
    minRounds: 5,
    maxRounds: 60,
  });
  assert.equal(result.verdict.calledBy, 'CPU µs/request');
  assert.match(result.verdict.notes[0], /client-bound: req\/s is a lower bound/);
});

test('duet falls back to sequential, with a one-line reason, where two sides cannot run at once', () => {
  const builtin = { name: 'express', launch: {} };
  const fixedPort = { name: 'mine', launch: { port: 8080 } };
  assert.deepEqual(benchmarkMode('duet', { scenario: 'json' }, { base: builtin, head: builtin }), { mode: 'duet' });
  const { mode, fallback } = benchmarkMode('duet', { scenario: 'json' }, { base: fixedPort, head: fixedPort });
  assert.equal(mode, 'sequential');
  assert.equal(
    fallback,
    'sequential, not duet: mine listens on the fixed port 8080, so its two sides cannot run at once',
  );
  assert.match(
    benchmarkMode('duet', { scenario: 'db' }, { base: builtin, head: builtin }).fallback,
    /^sequential, not duet: the db scenario starts a PostgreSQL server per side/,
  );
  assert.deepEqual(benchmarkMode('sequential', { scenario: 'json' }, { base: builtin, head: builtin }), {
    mode: 'sequential',
  });
});

test('a reference that moved (the same code on both sides) warns that the machine was not steady', async () => {
  const { measureRound } = fakeMeasure({ base: 10000, head: 8000 }, 0.02);
  const measured = await compareInterleaved({ measureRound, thresholds, budgetMs: 1e9, minRounds: 3, maxRounds: 3 });
  const report = (referencesMoved) =>
    reportOf(measured, {
      sides: { base: { description: 'main' }, head: { description: 'branch' } },
      settings: { thresholds, minRounds: 3, maxRounds: 3, budgetSeconds: 1, roundSeconds: 1, warmupSeconds: 0 },
      gate: { failed: false, failThreshold: 0.1, regressions: [], referencesMoved },
    });
  assert.match(
    report(['node-http hello c=1']),
    /⚠️ The reference node-http hello c=1 moved although its code is the same on both sides/,
  );
  assert.doesNotMatch(report([]), /⚠️/);
});

// compare's paired runner on scripted rounds (one second each); options override its limits and judging.
function runScripted(ratios, options = {}) {
  const { measureRound, now } = scriptedRounds(ratios);
  return compareInterleaved({
    measureRound,
    now,
    thresholds,
    interval: 'paired',
    budgetMs: 1e9,
    minRounds: 5,
    maxRounds: 60,
    ...options,
  });
}

test('the sampling goes on while a change is likely, and stops once it is certain: a small regression', async () => {
  // After 6 rounds the interval spans zero but lies inside ±5 % with an estimate of about +3 %: the old
  // rule stopped there on "no change"; the 7th round's interval excludes zero.
  const result = await runScripted([1.035, 1.04, 0.995, 1.03, 1.038, 1.029, 1.032, 1.03]);
  assert.equal(result.rounds, 7);
  assert.equal(result.stoppedBy, 'resolved');
  assert.equal(result.verdict.verdict, 'small regression');
  assert.equal(result.verdict.calledBy, 'CPU µs/request');
  const [low, high] = result.verdicts['CPU µs/request'].ci;
  assert.ok(low > 0 && high < 0.05, `${low} … ${high}`);
});

test('a likely change that the budget cuts short stays inconclusive, never "no change"', async () => {
  const result = await runScripted([1.035, 1.04, 0.995, 1.03, 1.038, 1.029, 0.99, 1.04], { budgetMs: 7000 });
  assert.equal(result.stoppedBy, 'budget');
  assert.equal(result.verdict.verdict, 'inconclusive');
});

// Fifteen rounds within ±0.2 % after a scripted start, so that a run can settle on no change.
const STEADY_ROUNDS = Array.from({ length: 15 }, (_, index) => 1 + (index % 2 ? 2 : -2) / 1000);

test('no change from five rounds, within the no-change margin; a confirming run needs it within the minimum effect', async () => {
  // Five rounds whose 90 % interval lies inside ±3.75 % (3/4 of the band) around zero, but whose 80 % one reaches
  // past -2 %.
  const ratios = [1.035, 0.965, 1.005, 0.97, 1.02, ...STEADY_ROUNDS];
  const run = (judging) => runScripted(ratios, { maxRounds: 20, ...judging });
  const first = await run({});
  assert.deepEqual([first.verdict.verdict, first.rounds], ['no change', 5]);
  assert.equal(first.verdicts['CPU µs/request'].ci, null);
  const confirming = await run(CONFIRMING_RUN);
  assert.equal(confirming.verdict.verdict, 'no change');
  assert.ok(confirming.rounds > 5, `${confirming.rounds} rounds`);
  const [low, high] = confirming.verdicts['CPU µs/request'].equivalenceCi;
  assert.ok(low > -0.02 && high < 0.02, `${low} … ${high}`);
});

test('no change must lie inside 3/4 of the band: an interval inside ±5 % but reaching past ±3.75 % samples on', async () => {
  // Five rounds whose 90 % interval (-4.0 % … +4.5 %) lies inside the band, not inside the no-change margin.
  const ratios = [1.045, 0.96, 1.01, 0.995, 1, ...STEADY_ROUNDS];
  const result = await runScripted(ratios, { maxRounds: 20 });
  assert.equal(result.verdict.verdict, 'no change');
  assert.ok(result.rounds > 5, `${result.rounds} rounds`);
  assert.deepEqual(
    [NO_CHANGE_MARGINS.band({ threshold: 0.05, minimumEffect: 0.02 }), NO_CHANGE_MARGINS.band({ threshold: 0.02 })].map(
      (margin) => +margin.toFixed(6),
    ),
    [0.0375, 0.02],
    'a share of the band, never less than the minimum effect',
  );
});

test('a no-change margin set with the band (--no-change-margin) replaces the share: the whole band stops at round 5', async () => {
  const ratios = [1.045, 0.96, 1.01, 0.995, 1, ...STEADY_ROUNDS];
  const wholeBand = Object.fromEntries(
    Object.entries(thresholds).map(([metric, band]) => [metric, { ...band, noChangeMargin: band.threshold }]),
  );
  const result = await runScripted(ratios, { maxRounds: 20, thresholds: wholeBand });
  assert.equal(result.verdict.verdict, 'no change');
  assert.equal(result.rounds, 5);
  assert.equal(result.verdicts['CPU µs/request'].equivalenceMargin, 0.05);
  assert.equal(NO_CHANGE_MARGINS.band({ threshold: 0.05, minimumEffect: 0.02, noChangeMargin: 0.045 }), 0.045);
});

// The benchmark's verdict from constructed metric verdicts (deciding: CPU µs/request, then req/s).
const deciding = { names: ['CPU µs/request', 'req/s'], clientBound: false };
const judged = (cpu, requests) => ({ 'CPU µs/request': { verdict: cpu }, 'req/s': { verdict: requests } });

test('the deciding order: a full change calls at once, a small one only once every deciding metric is resolved', () => {
  const verdictOf = (cpu, requests) => overallVerdict(judged(cpu, requests), deciding);
  assert.deepEqual(verdictOf('regression', 'inconclusive'), {
    verdict: 'regression',
    calledBy: 'CPU µs/request',
    resolved: true,
    notes: [],
  });
  assert.equal(verdictOf('small regression', 'regression').verdict, 'regression', 'a full change beats a small one');
  assert.equal(verdictOf('small regression', 'regression').calledBy, 'req/s');
  const open = verdictOf('small regression', 'inconclusive');
  assert.deepEqual(
    [open.verdict, open.calledBy, open.resolved],
    ['small regression', 'CPU µs/request', false],
    'req/s may still find a larger change: sample on, and if the budget ends here, say what is certain',
  );
  assert.match(open.notes.join(), /req\/s not resolved/);
  assert.deepEqual(
    [verdictOf('small regression', 'no change').verdict, verdictOf('small regression', 'no change').resolved],
    ['small regression', true],
  );
  assert.equal(verdictOf('no change', 'small improvement').verdict, 'small improvement');
  assert.equal(verdictOf('no change', 'small improvement').calledBy, 'req/s');
  const split = verdictOf('small regression', 'small improvement');
  assert.equal(split.verdict, 'small regression');
  assert.match(split.notes.join(), /req\/s moved the other way \(small improvement\)/);
  assert.deepEqual(
    [verdictOf('no change', 'no change').verdict, verdictOf('no change', 'no change').calledBy],
    ['no change', 'CPU µs/request + req/s'],
  );
  assert.equal(verdictOf('no change', 'inconclusive').verdict, 'inconclusive');
  assert.equal(verdictOf('no change', 'inconclusive').resolved, false);
});
