// The interleaved, adaptive measurement of one benchmark on two sides (Node core's
// compare.js and tachometer's automatic mode): rounds alternate the order of the sides
// (AB, BA, AB, ...; every pair of rounds is ABBA) so that a slow phase of the machine hits
// both, each measurement in a fresh server process; rounds are added until the verdict
// for the deciding metric is resolved or the time budget is spent.
import { compareSamples, DEFAULTS, stopReason, VERDICTS } from '../stats/index.js';

// What is kept of each measured round (a run record of bench/results/record.js): enough
// to recompute the verdicts and to audit them.
export const roundSample = (run) => ({
  requestsPerSecond: run.requests.mean,
  p99LatencyMs: run.latencyMs.p99,
  errors: run.errors,
  timeouts: run.timeouts,
  clientSaturated: run.loadGenerator.saturated,
});

// What is judged, from a round sample; `decides` drives the stopping rule.
export const METRICS = {
  'req/s': { direction: 'bigger', unit: 'req/s', value: (sample) => sample.requestsPerSecond, decides: true },
  'p99 latency': { direction: 'smaller', unit: 'ms', value: (sample) => sample.p99LatencyMs, decides: false },
};

// thresholds: per metric, { threshold, minimumEffect } as fractions; interval: which one decides (bench/stats/verdict.js).
export function verdictsOf(samples, { thresholds, minSamples, interval = DEFAULTS.interval }) {
  return Object.fromEntries(Object.entries(METRICS).map(([metric, { direction, value }]) => {
    const base = samples.base.map(value);
    const head = samples.head.map(value);
    // A latency of 0 ms (below autocannon's resolution) cannot be a relative baseline.
    if (base.every((each) => each === 0)) return [metric, { verdict: VERDICTS.inconclusive, ci: null, reason: 'base is 0' }];
    return [metric, compareSamples(base, head, { direction, ...thresholds[metric], minSamples, interval })];
  }));
}

/**
 * @param {{measure: (side: 'base'|'head', round: number) => Promise<object>, budgetMs: number,
 *   minRounds: number, maxRounds: number, thresholds: object, interval?: string, now?: () => number}} plan
 * @returns {Promise<{samples: {base: object[], head: object[]}, verdicts: object, rounds: number, elapsedMs: number, stoppedBy: string}>}
 */
export async function compareInterleaved({ measure, budgetMs, minRounds, maxRounds, thresholds, interval, now = Date.now }) {
  const samples = { base: [], head: [] };
  const startedAt = now();
  let rounds = 0;
  let verdicts;
  for (;;) {
    const order = rounds % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
    for (const side of order) samples[side].push(await measure(side, rounds + 1));
    rounds++;
    verdicts = verdictsOf(samples, { thresholds, minSamples: Math.max(2, minRounds), interval });
    const deciding = Object.keys(METRICS).find((metric) => METRICS[metric].decides);
    const stoppedBy = stopReason({ result: verdicts[deciding], elapsedMs: now() - startedAt, budgetMs, rounds, minRounds, maxRounds });
    if (stoppedBy) return { samples, verdicts, rounds, elapsedMs: now() - startedAt, stoppedBy };
  }
}
