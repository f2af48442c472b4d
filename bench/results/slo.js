// Service-level objectives, in the convention of k6's thresholds: `"slo": {"p99 latency": "< 50 ms",
// "error %": "< 0.1"}`, a metric of the registry (site/shared/metrics.js) and a bound in its unit (the
// unit may be left out). A suite's or perfgate.config's `slo` holds for every benchmark;
// `benchmarkSlo` adds or replaces objectives per benchmark, keyed as `thresholds` are ("<server>
// <scenario> c=<N>", "<server> <scenario>" or a scenario; the most specific key wins per metric).
// Pure: the readers give the values (a run's summary here, a comparison's rounds in
// bench/comparison/slo-gate.js).
import { keyMatches } from '../project/config.js';
import { TABLE_FORMATS } from './markdown.js';
import { METRIC_REGISTRY, metricByName, summaryValue } from './metrics.js';

const COMPARISONS = {
  '<': (value, bound) => value < bound,
  '<=': (value, bound) => value <= bound,
  '>': (value, bound) => value > bound,
  '>=': (value, bound) => value >= bound,
};
const BOUND = /^\s*(<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)\s*(.*?)\s*$/;

// What a run measures: a metric found by a search (the knee rate) is never an objective.
const MEASURED = METRIC_REGISTRY.filter((each) => !each.search);

// One objective's text -> {metric, comparison, bound, text}, or a problem naming the fix.
function parseObjective(name, text) {
  const metric = MEASURED.find((each) => each.name === name);
  const names = MEASURED.map((each) => each.name).join(', ');
  if (metricByName(name)?.search)
    return { problem: `"${name}" is what bench --find-knee finds, not what a run measures: use one of ${names}` };
  if (!metric) return { problem: `"${name}" is not a metric: use one of ${names}` };
  const example = `e.g. "< 50 ${metric.unit}"`;
  const match = typeof text === 'string' ? BOUND.exec(text) : null;
  if (!match)
    return {
      problem: `"${name}": ${JSON.stringify(text)} is not a bound: write <, <=, > or >=, a number and its unit (${example})`,
    };
  const [, comparison, number, unit] = match;
  if (unit && unit !== metric.unit)
    return {
      problem: `"${name}": ${JSON.stringify(text)} is in ${unit}, but ${name} is in ${metric.unit} (${example})`,
    };
  return { metric: name, comparison, bound: Number(number), text: `${comparison} ${number} ${metric.unit}` };
}

const parseAll = (slo = {}) => Object.entries(slo).map(([name, text]) => parseObjective(name, text));

/** The problems of a config's `slo` and `benchmarkSlo`, as "field: problem" lines; empty when valid. */
export function sloProblems({ slo, benchmarkSlo = {} }) {
  return [
    ...parseAll(slo)
      .filter((each) => each.problem)
      .map((each) => `slo: ${each.problem}`),
    ...Object.entries(benchmarkSlo).flatMap(([key, own]) =>
      parseAll(own)
        .filter((each) => each.problem)
        .map((each) => `benchmarkSlo.${key}: ${each.problem}`),
    ),
  ];
}

/** The keys of `benchmarkSlo` that name none of the specs, as problem lines. */
export const unmatchedSloKeys = ({ benchmarkSlo = {} }, specs) =>
  Object.keys(benchmarkSlo)
    .filter((key) => !specs.some((spec) => keyMatches(key, spec)))
    .map(
      (key) =>
        `benchmarkSlo.${key}: names no benchmark (use "<server> <scenario> c=<N>", "<server> <scenario>" or a scenario; benchmarks: ${specs.map((spec) => spec.id).join(', ')})`,
    );

/** A benchmark's objectives (a valid config's): the suite's, then its own keys' from the least specific. */
export function objectivesFor({ slo = {}, benchmarkSlo = {} }, spec) {
  const keys = Object.keys(benchmarkSlo)
    .filter((key) => keyMatches(key, spec))
    .sort((a, b) => a.length - b.length);
  const merged = Object.assign({}, slo, ...keys.map((key) => benchmarkSlo[key]));
  return parseAll(merged);
}

/**
 * Each objective judged: met true or false, or null when it could not be (`unjudged` says why).
 * @param {object[]} objectives  objectivesFor's
 * @param {(metricName: string) => number|null} measured
 * @param {string} [unjudged]  why none can be judged (the client, not the server, shaped the run)
 */
export const judgeObjectives = (objectives, measured, unjudged) =>
  objectives.map(({ metric, comparison, bound, text }) => {
    const value = measured(metric) ?? null;
    const why = unjudged ?? (value === null ? `${metric} was not measured` : undefined);
    return {
      metric,
      bound: text,
      value,
      met: why ? null : COMPARISONS[comparison](value, bound),
      ...(why ? { why } : {}),
    };
  });

export const brokenObjectives = (judged = []) => judged.filter((each) => each.met === false);

// The metrics timed by the client (from its latency histogram): an open load's client that fell
// behind its schedule put its own lag into them.
const CLIENT_TIMED = new Set(['p50 latency', 'p99 latency']);
const BEHIND = "the client did not hold the schedule: the latency is the client's, not only the server's";

/** A measured benchmark's objectives judged on its summary; latency is not, when an open load's client fell behind. */
export function benchmarkSlo(config, benchmark) {
  const behind = benchmark.runs.some((run) => run.loadGenerator.schedule?.behind);
  const objectives = objectivesFor(config, benchmark);
  const measured = (name) => summaryValue(metricByName(name), benchmark.summary);
  return objectives.map(
    (objective) =>
      judgeObjectives([objective], measured, behind && CLIENT_TIMED.has(objective.metric) ? BEHIND : undefined)[0],
  );
}

// A value as the run's table shows it, where its format carries the unit ("15.9 ms", "0.00 %").
function shown(metric, value) {
  const format = TABLE_FORMATS[metric.table?.format];
  return format && format !== TABLE_FORMATS.integer ? format(value) : `${value} ${metric.unit}`;
}

// One line per objective: "express json r=2000: p99 latency 12.4 ms, < 50 ms: met".
export function sloLines(benchmarks) {
  return benchmarks.flatMap((benchmark) =>
    (benchmark.slo ?? []).map((each) => {
      const value = each.value === null ? 'not measured' : shown(metricByName(each.metric), each.value);
      const verdict = each.met === null ? `not judged (${each.why})` : each.met ? 'met' : 'BROKEN';
      return `${benchmark.id}: ${each.metric} ${value}, ${each.bound}: ${verdict}`;
    }),
  );
}

/** Judges every measured benchmark of a suite's result on its objectives, kept in its record (`slo`). */
export function judgeSuiteSlo(config, result) {
  for (const benchmark of result.benchmarks) {
    if (benchmark.status !== 'ok') continue;
    const judged = benchmarkSlo(config, benchmark);
    if (judged.length) benchmark.slo = judged;
  }
}

/** What a run's judged objectives say: the lines to print and how many broke. */
export const sloReport = (benchmarks) => ({
  lines: sloLines(benchmarks),
  broken: benchmarks.reduce((count, benchmark) => count + brokenObjectives(benchmark.slo).length, 0),
});
