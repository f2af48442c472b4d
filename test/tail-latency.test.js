// p99.9 latency: given only from enough requests, and at an offered rate it calls the verdict
// when every round had them and p99 saw no change (the 1-in-1,000 stall). No servers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareInterleaved } from '../bench/comparison/rounds.js';
import { createHistogram, latencySummary, P999_MIN_SAMPLES } from '../bench/measurement/latency-histogram.js';
import { decidingMetricsAt, defaultBands } from '../bench/results/metrics.js';
import { seededRandom } from '../bench/stats/index.js';
import { closedLoad, openLoad } from '../site/shared/load-point.js';

function histogramOf(count) {
  const histogram = createHistogram();
  // 1 ms each, but every 500th request 100 ms: the p99.9 is in the slow ones, the p99 not.
  for (let index = 1; index <= count; index++) histogram.recordValue(index % 500 === 0 ? 100_000 : 1000);
  return histogram;
}

test('p99.9 latency is given from the minimum count of requests on, never from fewer', () => {
  assert.equal(latencySummary(histogramOf(P999_MIN_SAMPLES - 1)).p999, undefined);
  const summary = latencySummary(histogramOf(P999_MIN_SAMPLES));
  assert.equal(Math.round(summary.p99), 1);
  assert.equal(Math.round(summary.p999), 100);
});

test('p99.9 latency decides at a rate after p99 latency, and not at a tier', () => {
  const names = (point) => decidingMetricsAt(point).map((metric) => metric.name);
  const open = names(openLoad(2000));
  assert.ok(open.indexOf('p99.9 latency') > open.indexOf('p99 latency'));
  assert.ok(!names(closedLoad(100)).includes('p99.9 latency'));
});

// Rounds at a held rate: the same CPU and p99 on both sides, head's p99.9 doubled.
function rareStall({ everyRound = true } = {}) {
  const random = seededRandom(3);
  const jitter = () => 1 + 0.02 * (random() - 0.5);
  let round = 0;
  const side = (p999) => ({
    requestsPerSecond: 2000,
    p99LatencyMs: 10 * jitter(),
    ...(everyRound || round > 1 ? { p999LatencyMs: p999 * jitter() } : {}),
    cpuMicrosPerRequest: 300 * jitter(),
    errors: 0,
    timeouts: 0,
    clientSaturated: false,
  });
  return async () => {
    round += 1;
    return { base: side(20), head: side(40) };
  };
}

const judge = (measureRound) =>
  compareInterleaved({
    measureRound,
    thresholds: defaultBands(),
    budgetMs: 1e9,
    minRounds: 6,
    maxRounds: 12,
    load: openLoad(2000),
  });

test('at a rate a stall of the 1-in-1,000 tail is called by p99.9 latency when every round measured it', async () => {
  const called = await judge(rareStall());
  assert.equal(called.verdict.verdict, 'regression');
  assert.equal(called.verdict.calledBy, 'p99.9 latency');
  const short = await judge(rareStall({ everyRound: false }));
  assert.notEqual(short.verdict.calledBy, 'p99.9 latency', 'a round of too few requests has none');
  assert.equal(short.verdicts['p99.9 latency'].reason, 'not measured in every round');
});
