// Which variants, scenarios, tiers and metrics the data offers, and whether a sample
// passes the chosen filters. A filter left unset (null) lets everything through.
const METRIC_ORDER = ['req/s', 'p50 latency', 'p99 latency', 'error %', 'peak RSS'];
const DEFAULT_METRICS = ['req/s', 'p99 latency'];

const metricRank = (metric) => (METRIC_ORDER.includes(metric) ? METRIC_ORDER.indexOf(metric) : METRIC_ORDER.length);
export const byMetric = (a, b) => metricRank(a) - metricRank(b) || a.localeCompare(b);

const distinct = (values) => [...new Set(values.filter((value) => value !== null))];

export function filterChoices(samples) {
  return {
    variant: distinct(samples.map((sample) => sample.variant)).sort(),
    scenario: distinct(samples.map((sample) => sample.scenario)).sort(),
    tier: distinct(samples.map((sample) => sample.tier)).sort((a, b) => a - b).map(String),
    metric: distinct(samples.map((sample) => sample.metric)).sort(byMetric),
  };
}

// The trend's req/s and p99 latency when the data has them, else its first metrics.
export function chosenMetrics(state, choices) {
  if (state.metric !== null) return state.metric;
  const defaults = DEFAULT_METRICS.filter((metric) => choices.metric.includes(metric));
  return defaults.length > 0 ? defaults : choices.metric.slice(0, 2);
}

const passes = (chosen, value) => chosen === null || chosen.includes(value === null ? null : String(value));

export function matchesFilters(sample, state, { ignore = [] } = {}) {
  return ['variant', 'scenario', 'tier'].every((key) => ignore.includes(key) || passes(state[key], sample[key]));
}
