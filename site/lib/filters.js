// Which suites, variants, runtimes, scenarios, tiers and metrics the data offers, and whether a sample
// passes the chosen filters and the search. A filter left unset (null) lets everything through.
import { METRIC_REGISTRY } from '../shared/metrics.js';
import { baseMetricOf } from '../shared/relative.js';

// perfgate's metrics in the order of its registry, each followed by its relative line
// ("<metric> vs baseline"), then other tools' by name.
const METRIC_ORDER = METRIC_REGISTRY.map((metric) => metric.name);
// perfgate's own histories hold several metrics per benchmark: a few are shown at first, and
// every relative line (there are few, and they are what the relative trend is for).
const PERFGATE_DEFAULT_METRICS = METRIC_REGISTRY.filter((metric) => metric.siteDefault).map((metric) => metric.name);

const ownRank = (metric) => (METRIC_ORDER.includes(metric) ? METRIC_ORDER.indexOf(metric) : METRIC_ORDER.length);
const metricRank = (metric) => {
  const measured = baseMetricOf(metric);
  return measured === null ? ownRank(metric) : ownRank(measured) + 0.5;
};
export const byMetric = (a, b) => metricRank(a) - metricRank(b) || a.localeCompare(b);

const distinct = (values) => [...new Set(values.filter((value) => value !== null))];

export function filterChoices(data) {
  const { samples } = data;
  const perfgateMetrics = distinct(samples.filter((sample) => sample.variant !== null).map((sample) => sample.metric));
  const otherMetrics = distinct(samples.filter((sample) => sample.variant === null).map((sample) => sample.metric));
  const defaults = [
    ...PERFGATE_DEFAULT_METRICS.filter((metric) => perfgateMetrics.includes(metric)),
    ...perfgateMetrics.filter((metric) => baseMetricOf(metric) !== null),
  ];
  return {
    suite: data.suites.map((suite) => suite.name),
    variant: distinct(samples.map((sample) => sample.variant)).sort(),
    runtime: distinct(samples.map((sample) => sample.runtime)).sort(),
    scenario: distinct(samples.map((sample) => sample.scenario)).sort(),
    tier: distinct(samples.map((sample) => sample.tier))
      .sort((a, b) => a - b)
      .map(String),
    metric: distinct(samples.map((sample) => sample.metric)).sort(byMetric),
    // Every unit of other tools' data (ns/op, B/op, allocs/op ... all matter), and
    // req/s and p99 latency of perfgate's (or its first metrics when those are absent).
    defaultMetrics: distinct([...(defaults.length ? defaults : perfgateMetrics.slice(0, 2)), ...otherMetrics]).sort(
      byMetric,
    ),
  };
}

export const chosenMetrics = (state, choices) => state.metric ?? choices.defaultMetrics;

const passes = (chosen, value) => chosen === null || chosen.includes(value === null ? null : String(value));

export function matchesFilters(sample, state, { ignore = [] } = {}) {
  return ['suite', 'variant', 'runtime', 'scenario', 'tier'].every(
    (key) => ignore.includes(key) || passes(state[key], sample[key]),
  );
}

// Every word of the search appears in the suite or bench name (case does not matter).
export function searchMatcher(query) {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return () => true;
  const cache = new Map();
  return (sample) => {
    if (!cache.has(sample.key)) {
      const haystack = `${sample.suite} ${sample.name}`.toLowerCase();
      cache.set(
        sample.key,
        words.every((word) => haystack.includes(word)),
      );
    }
    return cache.get(sample.key);
  };
}
