// What perfgate's commands read from the metric registry (site/shared/metrics.js, where each
// metric is one entry): the record, the github-action-benchmark files, the tables, compare
// (its rounds, verdicts, flags, schema and report), perfgate.config's thresholds and the PR
// comment all derive from these views, so adding a metric means adding one entry there.
import { METRIC_REGISTRY } from '../../site/shared/metrics.js';
import { decidesAt, MODELS } from '../../site/shared/load-point.js';
import { percentNumber as pct } from '../core/format.js';
import { mean } from '../stats/descriptive.js';

export { METRIC_REGISTRY };

export const metricByName = (name) => METRIC_REGISTRY.find((metric) => metric.name === name);

const present = (value) => value !== undefined && value !== null;

/** Whether a run of this suite config measures the metric (the runtime agent's only when asked for). */
export const measuredIn = (config) => (metric) => !metric.agent || config.runtimeMetrics === true;

// How a metric's runs make its summary (the entry's `summarise`): each gets the runs' values and
// the runs, and is absent (null) unless every run has a value.
export const SUMMARIES = {
  // Over all requests: each run weighs as many requests as it completed.
  perRequest: (values, runs) => {
    const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
    return requests > 0
      ? values.reduce((sum, value, index) => sum + value * runs[index].requests.total, 0) / requests
      : null;
  },
  max: (values) => Math.max(...values),
  mean,
};

const SUMMARISED_METRICS = METRIC_REGISTRY.filter((metric) => metric.summarise);

/** The summary's values of the metrics an entry's `summarise` summarises, keyed by name. */
export function summarisedMetrics(runs) {
  return Object.fromEntries(
    SUMMARISED_METRICS.map((metric) => {
      const values = runs.map(metric.fromRun);
      const value = values.every(present) ? SUMMARIES[metric.summarise](values, runs) : null;
      return [metric.name, value === null ? null : Math.round(value * 1000) / 1000];
    }),
  );
}

/** A metric's value in a benchmark's summary: null when it is absent. */
export const summaryValue = (metric, summary) =>
  (metric.summarise ? summary.metrics?.[metric.name] : metric.fromSummary(summary)) ?? null;

// The metrics compare judges per round, in the order its report lists them.
export const JUDGED_METRICS = METRIC_REGISTRY.filter((metric) => metric.band);

// A judged metric's value in one of compare's per-round samples (bench/comparison/rounds.js).
export const sampleValue = (metric, sample) => sample[metric.sampleKey];

// The metrics that may call a benchmark's verdict at a load point (site/shared/load-point.js), in the
// order they call it.
export const decidingMetricsAt = (point) =>
  JUDGED_METRICS.filter((metric) => decidesAt(metric, point)).sort((a, b) => a.decides.rank - b.decides.rank);

// At a connection tier: what calibration and the reports' defaults name.
export const DECIDING_METRICS = decidingMetricsAt({ model: MODELS.closed });

// compare's default bands, keyed by metric name (the settings' `thresholds`).
export const defaultBands = () => Object.fromEntries(JUDGED_METRICS.map((metric) => [metric.name, { ...metric.band }]));

// The parts of a verdict band; a metric names a flag for each part a user may set (noChangeMargin
// unset is a share of the band: bench/comparison/rounds.js's NO_CHANGE_MARGINS).
const BAND_PARTS = ['threshold', 'minimumEffect', 'noChangeMargin'];

/**
 * The settings that set the verdict bands, one per compare flag (a flag may set a part of
 * several metrics' bands, or both parts of one), in the registry's order:
 * [{ flag, config, default, sets: [{ metric, part }] }]; default is a fraction, or undefined
 * for a part that is derived unless set.
 */
export function bandSettings() {
  const byFlag = new Map();
  for (const metric of JUDGED_METRICS) {
    for (const part of BAND_PARTS.filter((each) => metric.bandFlags[each])) {
      const flag = metric.bandFlags[part];
      if (!byFlag.has(flag))
        byFlag.set(flag, { flag, config: metric.bandConfig[part], default: metric.band[part], sets: [] });
      byFlag.get(flag).sets.push({ metric: metric.name, part });
    }
  }
  return [...byFlag.values()];
}

/**
 * The bands of every judged metric from the values of the band settings (percentages, keyed
 * by `key`: 'flag' for compare's options, 'config' for a perfgate.config thresholds entry);
 * a part whose setting is not given keeps its band in `fallback` (else the registry's default).
 * @param {object} given  e.g. { threshold: 5, 'min-effect': 2 } or { p99Threshold: 20 }
 * @param {'flag'|'config'} key
 * @param {object} fallback  the bands keyed by metric name
 */
export function bandsFrom(given, key, fallback) {
  const bands = Object.fromEntries(
    JUDGED_METRICS.map((metric) => [metric.name, { ...metric.band, ...fallback[metric.name] }]),
  );
  for (const setting of bandSettings()) {
    const value = given[setting[key]];
    if (value === undefined) continue;
    for (const { metric, part } of setting.sets) bands[metric][part] = value / 100;
  }
  return bands;
}

// What is wrong with the bands of `thresholds` (fractions per metric name, as bandsFrom gives them),
// in the words of the settings that set them (`key`: 'flag' or 'config', as bandsFrom's), so that a
// band the verdict cannot use is said before anything is measured (bench/stats/verdict.js).
export function bandProblems(thresholds, key = 'flag') {
  const named = (metric, part) => {
    const name = metricByName(metric)[key === 'flag' ? 'bandFlags' : 'bandConfig'][part];
    return key === 'flag' ? `--${name}` : name;
  };
  const problems = [];
  for (const [metric, { threshold, minimumEffect = threshold, noChangeMargin }] of Object.entries(thresholds)) {
    if (minimumEffect > threshold)
      problems.push(
        `${named(metric, 'minimumEffect')} ${pct(minimumEffect)} is wider than ${named(metric, 'threshold')} ${pct(threshold)}: the minimum effect lies inside the band`,
      );
    else if (noChangeMargin !== undefined && !(noChangeMargin >= minimumEffect && noChangeMargin <= threshold))
      problems.push(
        `${named(metric, 'noChangeMargin')} ${pct(noChangeMargin)} lies outside ${named(metric, 'minimumEffect')} ${pct(minimumEffect)} … ${named(metric, 'threshold')} ${pct(threshold)}: the no-change margin lies between the minimum effect and the band`,
      );
  }
  // Metrics that share a flag share its problem.
  return [...new Set(problems)];
}
