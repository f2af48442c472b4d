// Seeded Monte Carlo checks of the claims in bench/stats/METHOD.md, under idealised normal noise.
// They document the method's behaviour; real false-alarm rates must come from A/A runs on the real machine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../bench/stats/prng.js';
import { bootstrapInterval, deltaMethodInterval } from '../bench/stats/relative-difference.js';
import { stopReason } from '../bench/stats/stopping.js';
import { compareSamples } from '../bench/stats/verdict.js';
import { welchTTest } from '../bench/stats/welch.js';

// Standard normal draws by the Box–Muller transform.
const normalSource = (seed) => {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
};

const roundsOf = (normal, count, level, cv) => Array.from({ length: count }, () => level * (1 + cv * normal()));

test('with 5 rounds a side, the delta-method interval keeps its 95 % coverage and the percentile bootstrap falls short', (t) => {
  const normal = normalSource(42);
  const trials = 400;
  let deltaCovers = 0;
  let bootstrapCovers = 0;
  for (let trial = 0; trial < trials; trial += 1) {
    const base = roundsOf(normal, 5, 1000, 0.05);
    const head = roundsOf(normal, 5, 1000, 0.05);
    const [deltaLow, deltaHigh] = deltaMethodInterval(base, head);
    const [bootLow, bootHigh] = bootstrapInterval(base, head, { resamples: 1000, seed: trial + 1 });
    if (deltaLow <= 0 && deltaHigh >= 0) deltaCovers += 1;
    if (bootLow <= 0 && bootHigh >= 0) bootstrapCovers += 1;
  }
  t.diagnostic(`coverage of 0: delta method ${deltaCovers / trials}, bootstrap ${bootstrapCovers / trials}`);
  assert.ok(deltaCovers / trials > 0.93, `delta-method coverage ${deltaCovers / trials}`);
  assert.ok(bootstrapCovers / trials < 0.9, `bootstrap coverage ${bootstrapCovers / trials}`);
});

test('A/A under adaptive stopping: the band keeps false alarms rare where peeking at p < 0.05 does not', (t) => {
  const normal = normalSource(7);
  const trials = 500;
  let falseAlarms = 0;
  let peekingAlarms = 0;
  for (let trial = 0; trial < trials; trial += 1) {
    const base = [];
    const head = [];
    let result;
    let peekedSignificant = false;
    while (
      !stopReason({ result, elapsedMs: 0, budgetMs: Infinity, rounds: base.length, minRounds: 3, maxRounds: 30 })
    ) {
      base.push(...roundsOf(normal, 1, 1000, 0.05));
      head.push(...roundsOf(normal, 1, 1000, 0.05));
      result = compareSamples(base, head);
      if (base.length >= 3 && welchTTest(base, head).pValue < 0.05) peekedSignificant = true;
    }
    if (result.verdict === 'regression' || result.verdict === 'improvement') falseAlarms += 1;
    if (peekedSignificant) peekingAlarms += 1;
  }
  t.diagnostic(`A/A false alarms: band verdict ${falseAlarms / trials}, peeking p < 0.05 ${peekingAlarms / trials}`);
  assert.ok(falseAlarms / trials < 0.01, `band false alarms ${falseAlarms / trials}`);
  assert.ok(peekingAlarms / trials > 0.15, `peeking false alarms ${peekingAlarms / trials}`);
});
