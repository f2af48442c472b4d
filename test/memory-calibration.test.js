// The memory injections (PERFGATE_INJECT_OBJECTS, PERFGATE_INJECT_LEAK) and the bookkeeping of
// calibrate --objects/--leak: bad amounts refused with the fix, what a leak keeps, detection per
// injection against its target beside the A/A rates, and the report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  INJECTION_TARGET,
  injectionsMarkdown,
  memoryInjections,
  summarizeInjectionTrials,
} from '../bench/comparison/calibration/injections.js';
import { readOptions } from '../servers/contract/contract.js';
import { OPTION_DEFAULTS, optionsEnv } from '../servers/contract/options.js';
import { keepBytes } from '../servers/contract/scenarios.js';

const env = (extra) => ({ ...optionsEnv(OPTION_DEFAULTS), ...extra });

test('an injected amount that is not a positive integer stops the server, naming the variable and the fix', () => {
  for (const name of ['PERFGATE_INJECT_OBJECTS', 'PERFGATE_INJECT_LEAK'])
    for (const bad of ['abc', '-1', '0', '1.5', '1e3'])
      assert.throws(
        () => readOptions(env({ [name]: bad })),
        new RegExp(
          `^Error: ${name}="${bad.replace('.', '\\.')}" is not a positive integer: give .* per request, or leave it unset$`,
        ),
        `${name}=${bad}`,
      );
  assert.deepEqual(
    [readOptions(env()).injectedLeak, readOptions(env({ PERFGATE_INJECT_LEAK: '1024' })).injectedLeak],
    [0, 1024],
  );
  assert.equal(readOptions(env({ PERFGATE_INJECT_OBJECTS: '50' })).injectedObjects, 50);
});

// A full collection on demand, so that garbage of other work does not hide or pad what is kept.
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
}

test('a leak keeps what it was given for good, on the V8 heap', () => {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 200; i++) keepBytes(64 * 1024);
  collectGarbage();
  // 200 × 64 KB kept: at least most of 12.5 MB more heap, whatever else the process did.
  assert.ok(process.memoryUsage().heapUsed - before > 10 * 1024 * 1024);
});

test('the memory injections are named by their amount and set their server variable', () => {
  assert.deepEqual(memoryInjections({ objects: [50, 200], leak: 1024 }), [
    {
      kind: 'objects 50',
      what: '50 small objects built and dropped per request',
      inject: { PERFGATE_INJECT_OBJECTS: '50' },
    },
    {
      kind: 'objects 200',
      what: '200 small objects built and dropped per request',
      inject: { PERFGATE_INJECT_OBJECTS: '200' },
    },
    { kind: 'leak 1024', what: '1024 bytes kept per request', inject: { PERFGATE_INJECT_LEAK: '1024' } },
  ]);
  assert.deepEqual(memoryInjections({}), []);
});

const trial = (kind, verdict, calledBy, seconds = 30) => ({
  kind,
  benchmark: 'express json c=100',
  status: 'ok',
  verdict,
  firstVerdict: verdict,
  calledBy,
  change: 0.02,
  rounds: 6,
  seconds,
  pinning: 'server cores 0, load core 1',
});

test('each injection is detected when called slower, by whichever metric, against the 90 % target; A/A as for CPU', () => {
  const injections = memoryInjections({ objects: [50], leak: 1024 });
  const trials = [
    trial('A/A', 'no change', null),
    trial('objects 50', 'regression', 'heap bytes/request', 40),
    trial('leak 1024', 'small regression', 'heap bytes/request', 250),
    trial('A/A', 'regression', 'CPU µs/request'),
    trial('objects 50', 'inconclusive', null, 180),
    trial('leak 1024', 'regression', 'heap bytes/request', 60),
  ];
  const summary = summarizeInjectionTrials(trials, injections, { budgetSeconds: 180 });
  assert.equal(INJECTION_TARGET.rate, 0.9);
  assert.deepEqual(
    summary.detection.map(({ kind, runs, detected, detectionRate, calledBy, resolvedWithinBudget }) => [
      kind,
      runs,
      detected,
      detectionRate,
      calledBy,
      resolvedWithinBudget,
    ]),
    [
      ['objects 50', 2, 1, 0.5, { 'heap bytes/request': 1 }, 1],
      ['leak 1024', 2, 2, 1, { 'heap bytes/request': 2 }, 1],
    ],
  );
  assert.deepEqual([summary.aa.runs, summary.aa.slower], [2, 1]);
  const markdown = injectionsMarkdown({
    benchmark: 'express json c=100',
    mode: 'duet',
    summary,
    trials,
    achieved: {
      'objects 50': [{ metric: 'heap bytes/request', change: 0.12, rounds: 12 }, null],
      'leak 1024': [{ metric: 'heap bytes/request', change: 0.05, rounds: 12 }, null],
    },
    pooledAA: [],
    budgetSeconds: 180,
  });
  assert.match(markdown, /## perfgate calibration: express json c=100, duet mode, memory \(objects 50, leak 1024\)/);
  assert.match(
    markdown,
    /\| 50 small objects built and dropped per request called regression or small regression \| 1 of 2 \(50 %\): 1 by heap bytes\/request; 1 within the 180 s budget, median 110 s \| ≥ 90 % \| ❌ \|/,
  );
  assert.match(markdown, /\| 1024 bytes kept per request called .* \| 2 of 2 \(100 %\).* \| ≥ 90 % \| ✅ \|/);
  assert.match(
    markdown,
    /Achieved over the trials of 1024 bytes kept per request: heap bytes\/request \+5\.0 % over 12 rounds; n\/a/,
  );
  assert.match(markdown, /\| A\/A called slower .* \| 1 of 2 \(50 %\)/);
  assert.match(markdown, /\| 3 \| leak 1024 \| small regression \| heap bytes\/request \| 2\.0 % \| 6 \| 250 \|/);
});
