// The injected stall (PERFGATE_INJECT_STALL, "<ms>/<every>") and the bookkeeping of
// calibrate --stall: its parsing and bad input, which benchmarks it takes, detection and report.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { injectionsMarkdown, summarizeInjectionTrials } from '../bench/comparison/calibration/injections.js';
import {
  STALL,
  stallBenchmarkProblem,
  stallInjections,
  stallOption,
  stallProblem,
} from '../bench/comparison/calibration/stall.js';
import { readOptions } from '../servers/contract/contract.js';
import { OPTION_DEFAULTS, optionsEnv } from '../servers/contract/options.js';
import { parseStall, stallEvery } from '../servers/contract/scenarios.js';

test('a stall reads as "<ms>/<every>", with or without "ms"', () => {
  assert.deepEqual(parseStall('20/200'), { ms: 20, every: 200 });
  assert.deepEqual(parseStall('2.5ms/10'), { ms: 2.5, every: 10 });
  assert.deepEqual(stallOption('20ms/200'), { ms: 20, every: 200, variable: '20/200' });
  assert.equal(stallProblem('20ms/200'), null);
});

test('a stall that is not "<ms>/<every>" is refused with the form to use', () => {
  for (const bad of ['abc', '20', '-5/100', '0/100', '20/0', '20/-1', '20ms', '/100', '20/1.5']) {
    assert.throws(() => parseStall(bad), /stall ".*" is not understood: use "<ms>\/<every>"/, bad);
    assert.match(stallProblem(bad), /^--stall: stall ".*" is not understood: use "<ms>\/<every>".*e\.g\. 20ms\/200/);
  }
  // The server refuses it at start, before it listens (runServer prints the message and exits).
  const env = (stall) => ({ ...optionsEnv(OPTION_DEFAULTS), ...(stall ? { PERFGATE_INJECT_STALL: stall } : {}) });
  assert.throws(() => readOptions(env('20-200')), /stall "20-200" is not understood/);
  assert.equal(readOptions(env()).injectedStall, null);
  assert.deepEqual(readOptions(env('5/3')).injectedStall, { ms: 5, every: 3 });
});

test('the stall sleeps on every every-th request only', () => {
  const onRequest = stallEvery({ ms: 30, every: 3 });
  const took = [];
  for (let i = 0; i < 6; i++) {
    const start = performance.now();
    onRequest();
    took.push(performance.now() - start);
  }
  // A sleep lasts at least its time; which calls slept is the behaviour, not how fast the others were.
  assert.ok(took[2] >= 29 && took[5] >= 29, took.join(', '));
  assert.ok(took[0] < took[2] && took[1] < took[2] && took[3] < took[5] && took[4] < took[5], took.join(', '));
});

test('--stall takes benchmarks at an offered rate only, and says how to give one', () => {
  assert.equal(stallBenchmarkProblem('express:json:r=2000'), null);
  assert.match(
    stallBenchmarkProblem('express:json:100'),
    /not at an offered rate.*variant:scenario:r=RATE.*--engine vegeta/,
  );
  assert.match(stallBenchmarkProblem('express:json:r=abc'), /not at an offered rate/);
});

const trial = (kind, verdict, calledBy, seconds = 30) => ({
  kind,
  benchmark: 'express json r=500',
  status: 'ok',
  verdict,
  firstVerdict: verdict,
  calledBy,
  change: 0.01,
  rounds: 8,
  seconds,
  pinning: 'server cores 0, load core 1',
});

test('a stall is detected when called slower, by whichever metric, against the 90 % target; A/A as for CPU', () => {
  const stall = stallOption('20ms/200');
  const injections = stallInjections(stall);
  assert.deepEqual(injections, [
    { kind: 'stall', what: 'a 20 ms stall every 200 requests', inject: { PERFGATE_INJECT_STALL: '20/200' } },
  ]);
  const trials = [
    trial('A/A', 'no change', null),
    trial('stall', 'regression', 'p99 latency', 40),
    trial('A/A', 'small regression', 'CPU µs/request'),
    trial('stall', 'inconclusive', null, 200),
    trial('stall', 'small regression', 'p99 latency', 50),
  ];
  const summary = summarizeInjectionTrials(trials, injections, { budgetSeconds: 180 });
  const [detection] = summary.detection;
  assert.deepEqual(
    [detection.runs, detection.detected, detection.detectionRate, detection.calledBy, detection.resolvedWithinBudget],
    [3, 2, 2 / 3, { 'p99 latency': 2 }, 2],
  );
  assert.equal(summary.aa.runs, 2);
  assert.equal(summary.aa.slower, 1);
  assert.deepEqual(STALL.shown, ['p99 latency', 'p99.9 latency', 'CPU µs/request']);
  assert.equal(STALL.runtimeMetrics, false, 'the tail needs no runtime agent');
  const markdown = injectionsMarkdown({
    benchmark: 'express json r=500',
    mode: 'duet',
    summary,
    trials,
    achieved: { stall: [{ metric: 'p99 latency', change: 0.4, rounds: 24 }, null, null] },
    pooledAA: [],
    budgetSeconds: 180,
    family: STALL,
  });
  assert.match(markdown, /## perfgate calibration: express json r=500, duet mode, tail latency \(stall\)/);
  assert.match(
    markdown,
    /\| a 20 ms stall every 200 requests called regression or small regression \| 2 of 3 \(67 %\): 2 by p99 latency; 2 within the 180 s budget/,
  );
  assert.match(markdown, /\| A\/A called slower .* \| 1 of 2 \(50 %\)/);
  assert.match(
    markdown,
    /Achieved over the trials of a 20 ms stall every 200 requests: p99 latency \+40\.0 % over 24 rounds; n\/a; n\/a/,
  );
});
