// The leak part of a comparison's check: with a soak (--soak-every), each side's heap growth per
// 10,000 requests is one slope through every round's serving processes (each at its own heap
// level, bench/measurement/runtime-agent/readings.js), and a benchmark fails the check when the
// head leaks where the base does not, whether or not it is slower: the head's 95 % interval lies
// wholly above the leak threshold and wholly above the base's, and the base's does not lie wholly
// above the threshold (a leak both sides have is the base's too, and does not fail the change).
import { growthPer10k } from '../measurement/runtime-agent/readings.js';

// The growth per 10,000 requests a side may certainly have without leaking (compare
// --leak-threshold): 100 bytes kept per request, below which pools and caches that settle late
// are not worth failing a change for.
export const LEAK_THRESHOLD_BYTES = 1_000_000;

// A side's growth over all its rounds, or null when a round read no trend.
function sideGrowth(samples) {
  if (!samples.every((sample) => Array.isArray(sample.heapTrend))) return null;
  return growthPer10k(samples.flatMap((sample) => sample.heapTrend));
}

const leaks = (side, threshold) => side.interval[0] > threshold;

/**
 * The benchmarks whose head leaks where the base does not, over a comparison's measured benchmarks.
 * @param {object[]} benchmarks  run-comparison.js's records, their rounds' heapTrend from a soak
 * @param {number} threshold  bytes per 10,000 requests
 * @returns {{id: string, base: object, head: object}[] | null}  each side's {growthBytesPer10kRequests,
 *   interval}; null when no benchmark was soaked
 */
export function leakBreaks(benchmarks, threshold = LEAK_THRESHOLD_BYTES) {
  const measured = benchmarks.filter((benchmark) => benchmark.status === 'ok' && !benchmark.reference);
  const soaked = measured.some((benchmark) => benchmark.samples.head.some((sample) => sample.heapTrend));
  if (!soaked) return null;
  return measured.flatMap((benchmark) => {
    const base = sideGrowth(benchmark.samples.base);
    const head = sideGrowth(benchmark.samples.head);
    if (!base || !head) return [];
    const headOnly = leaks(head, threshold) && !leaks(base, threshold) && head.interval[0] > base.interval[1];
    return headOnly ? [{ id: benchmark.id, base, head }] : [];
  });
}

/**
 * The gate (bench/comparison/gate.js judgeGate's, with its SLO part) with the leaks: any fails it.
 * A comparison without a soak keeps its gate as it was.
 */
export const withLeakGate = (gate, breaks, threshold = LEAK_THRESHOLD_BYTES) =>
  breaks === null
    ? gate
    : {
        ...gate,
        failed: gate.failed || breaks.length > 0,
        leakThreshold: threshold,
        leaks: breaks,
      };
