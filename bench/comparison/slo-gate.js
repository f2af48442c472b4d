// The SLO part of a pull request's check: a benchmark fails it when the head breaks an objective
// (bench/results/slo.js) that the base met, whatever the relative change; an objective both
// sides break is the base's problem too, and does not fail the change. A side's value is the
// median of its rounds' (each round is one measurement of both sides at once, in a duet).
import { median } from '../stats/descriptive.js';
import { metricByName, sampleValue } from '../results/metrics.js';
import { judgeObjectives, objectivesFor } from '../results/slo.js';

// The metrics compare keeps in each round without judging them (bench/comparison/rounds.js roundSample).
const KEPT_UNJUDGED = { 'error %': 'errorPct' };
const CLIENT_TIMED = new Set(['p50 latency', 'p99 latency']);

function roundValue(name, sample) {
  const metric = metricByName(name);
  return metric.sampleKey ? sampleValue(metric, sample) : sample[KEPT_UNJUDGED[name]];
}

// A side's objectives judged on its rounds: latency is not judged when an open load's client fell behind in one.
function judgeSide(objectives, samples) {
  const behind = samples.some((sample) => sample.clientBehind);
  return objectives.map((objective) => {
    const measured = (name) => {
      const values = samples.map((sample) => roundValue(name, sample)).filter((value) => typeof value === 'number');
      return values.length ? median(values) : null;
    };
    const why = behind && CLIENT_TIMED.has(objective.metric) ? 'the client fell behind its schedule' : undefined;
    return judgeObjectives([objective], measured, why)[0];
  });
}

/**
 * The objectives the head broke where the base met them, over a comparison's measured benchmarks.
 * @param {object[]} benchmarks  run-comparison.js's records
 * @param {{slo?: object, benchmarkSlo?: object}} config  the suite config
 * @returns {{id: string, metric: string, bound: string, base: number, head: number}[]}
 */
export function sloBreaks(benchmarks, config) {
  return benchmarks
    .filter((benchmark) => benchmark.status === 'ok' && !benchmark.reference)
    .flatMap((benchmark) => {
      const objectives = objectivesFor(config, benchmark);
      if (!objectives.length) return [];
      const base = judgeSide(objectives, benchmark.samples.base);
      const head = judgeSide(objectives, benchmark.samples.head);
      return head
        .map((judged, index) => ({ judged, base: base[index] }))
        .filter(({ judged, base: before }) => judged.met === false && before.met === true)
        .map(({ judged, base: before }) => ({
          id: benchmark.id,
          metric: judged.metric,
          bound: judged.bound,
          base: before.value,
          head: judged.value,
        }));
    });
}

/** The gate (bench/comparison/gate.js judgeGate's) with the SLO breaks: any fails it. */
export const withSloGate = (gate, breaks) => ({
  ...gate,
  failed: gate.failed || breaks.length > 0,
  sloBroken: breaks,
});
