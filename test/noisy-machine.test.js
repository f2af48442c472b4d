// The noisy-machine verdict on constructed rounds: an inconclusive comparison that the budget cut short says
// "the machine was too noisy (spread X %)" only when its rounds were too far apart for that many of them to show
// anything; a close call on a quiet machine stays a plain inconclusive, and a resolved verdict has no such note.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareInterleaved, roundSample } from '../bench/comparison/rounds.js';
import { defaultBands } from '../bench/results/metrics.js';
import { roundSpread, tooNoisy } from '../bench/stats/index.js';
import { scriptedRounds } from './helpers/simulated-rounds.js';

// compare's paired runner on scripted rounds, with the default bands.
function runRatios(ratios, budgetMs, maxRounds = 60) {
  return compareInterleaved({
    ...scriptedRounds(ratios),
    thresholds: defaultBands(),
    interval: 'paired',
    budgetMs,
    minRounds: 5,
    maxRounds,
  });
}
const noteOf = (result) => result.verdict.notes.find((note) => note.startsWith('the machine was too noisy'));

test("the rounds' spread is the standard deviation of their log ratios; too noisy when even no change cannot be shown", () => {
  assert.equal(roundSpread([100, 100], [100, 100]), 0);
  assert.ok(Math.abs(roundSpread([100, 100, 100], [110, 100, 90]) - 0.1003) < 1e-3);
  assert.equal(roundSpread([100], [90]), null, 'one round has no spread');
  assert.equal(roundSpread([100, 0], [90, 80]), null, 'a round that measured 0');
  // 10 rounds at 90 %: the t interval's half-width is 1.833 × spread / √10.
  assert.equal(tooNoisy({ spread: 0.06, rounds: 10, margin: 0.0375, confidence: 0.9 }), false);
  assert.equal(tooNoisy({ spread: 0.07, rounds: 10, margin: 0.0375, confidence: 0.9 }), true);
  // More rounds resolve a wider spread.
  assert.equal(tooNoisy({ spread: 0.07, rounds: 40, margin: 0.0375, confidence: 0.9 }), false);
  assert.equal(tooNoisy({ spread: null, rounds: 10, margin: 0.0375, confidence: 0.9 }), false);
});

test('rounds ±15 % apart that the budget cuts short: inconclusive, and the verdict says the machine was too noisy', async () => {
  const ratios = Array.from({ length: 10 }, (_, index) => (index % 2 ? 0.86 : 1.15));
  const result = await runRatios(ratios, 10_000);
  assert.equal(result.stoppedBy, 'budget');
  assert.equal(result.verdict.verdict, 'inconclusive');
  assert.match(noteOf(result) ?? '', /^the machine was too noisy \(spread 1[45]\.\d+ % per round in [\w µ/]+\)$/);
  // The same, for the PR comment to read (bench/github/comment.js).
  assert.ok(result.verdict.noisy.spread > 0.14 && result.verdict.noisy.spread < 0.16, `${result.verdict.noisy.spread}`);
});

test('a close call on a quiet machine stays a plain inconclusive; a resolved verdict carries no noise note', async () => {
  const close = await runRatios([1.035, 1.04, 0.995, 1.03, 1.038, 1.029, 0.99, 1.04], 7000);
  assert.deepEqual([close.stoppedBy, close.verdict.verdict], ['budget', 'inconclusive']);
  assert.equal(noteOf(close), undefined);
  assert.equal(close.verdict.noisy, undefined);
  const clear = await runRatios(
    Array.from({ length: 10 }, () => 1.2),
    1e9,
  );
  assert.deepEqual([clear.stoppedBy, clear.verdict.verdict], ['resolved', 'regression']);
  assert.equal(noteOf(clear), undefined);
});

test('rounds too few for an interval that calls a change say so, not that the machine was noisy', async () => {
  const short = await runRatios([0.7, 0.68, 0.72, 0.69], 1e9, 4);
  assert.deepEqual([short.stoppedBy, short.verdict.verdict], ['max-rounds', 'inconclusive']);
  assert.equal(noteOf(short), undefined);
  assert.equal(short.verdict.noisy, undefined);
  assert.ok(
    short.verdict.notes.includes('4 rounds are too few for an interval that calls a change: allow more (--max-rounds)'),
    short.verdict.notes.join('; '),
  );
});

test("each round's sample keeps the machine it ran on (CPU model, steal %), recorded beside the judged metrics", () => {
  const run = (host) => ({
    requests: { perSecond: [1000] },
    latencyMs: { p50: 1, p99: 2 },
    server: { cpuMicrosPerRequest: 100 },
    errors: 0,
    timeouts: 0,
    errorPct: 0,
    loadGenerator: { saturated: false },
    ...(host ? { host } : {}),
  });
  assert.deepEqual(roundSample(run({ cpuModel: 'EPYC 7763', stealPct: 7.5 })).host, {
    cpuModel: 'EPYC 7763',
    stealPct: 7.5,
  });
  assert.equal('host' in roundSample(run()), false);
});
