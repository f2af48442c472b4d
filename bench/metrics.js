// Every metric perfgate measures, defined once: its name (the trend line's identity in the
// history, "<benchmark id> - <name>": never rename one), unit, direction, how it is read
// from a run record (bench/results/record.js) and from a benchmark's summary, the verdict
// band compare uses by default, and its label. The record, the github-action-benchmark
// files, the tables, compare, its report, the PR comment and the site all read this list:
// adding a metric means adding one entry here.
//
// band: for a judged metric, { threshold, minimumEffect } as fractions (bench/stats/verdict.js):
// an interval wholly inside ±threshold is "no change", wholly beyond ±minimumEffect a change.
// sampleKey: the field of compare's per-round sample (bench/compare/rounds.js) that holds it.

const MB = 1024 * 1024;
const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;

export const METRICS = [
  {
    name: 'req/s',
    label: 'Requests/sec',
    unit: 'req/s',
    direction: 'bigger',
    fromRun: (run) => run.requests.mean,
    fromSummary: (summary) => summary.requests.mean,
    sampleKey: 'requestsPerSecond',
    band: { threshold: 0.05, minimumEffect: 0.02 },
  },
  {
    name: 'p50 latency',
    label: 'p50 latency',
    unit: 'ms',
    direction: 'smaller',
    fromRun: (run) => run.latencyMs.p50,
    fromSummary: (summary) => summary.latencyMs.p50,
  },
  {
    name: 'p99 latency',
    label: 'p99 latency',
    unit: 'ms',
    direction: 'smaller',
    fromRun: (run) => run.latencyMs.p99,
    fromSummary: (summary) => summary.latencyMs.p99,
    sampleKey: 'p99LatencyMs',
    band: { threshold: 0.1, minimumEffect: 0.1 },
  },
  {
    // The server process group's CPU time (user + system, children included) over the
    // measured window, per completed request: independent of how fast the client is.
    name: 'CPU µs/request',
    label: 'Server CPU µs/request',
    unit: 'µs',
    direction: 'smaller',
    fromRun: (run) => run.server.cpuMicrosPerRequest,
    fromSummary: (summary) => summary.cpuMicrosPerRequest,
    sampleKey: 'cpuMicrosPerRequest',
    band: { threshold: 0.05, minimumEffect: 0.02 },
  },
  {
    name: 'error %',
    label: 'Error %',
    unit: '%',
    direction: 'smaller',
    fromRun: (run) => run.errorPct,
    fromSummary: (summary) => summary.errorPct,
  },
  {
    name: 'peak RSS',
    label: 'Peak RSS',
    unit: 'MB',
    direction: 'smaller',
    fromRun: (run) => round(run.server.peakRssBytes / MB, 1),
    fromSummary: (summary) => round(summary.peakRssBytes / MB, 1),
  },
];

export const metricByName = (name) => METRICS.find((metric) => metric.name === name);

// The metrics compare judges per round, in the order its report lists them.
export const JUDGED_METRICS = METRICS.filter((metric) => metric.band);

// compare's default bands, keyed by metric name (the settings' `thresholds`).
export const defaultBands = () => Object.fromEntries(JUDGED_METRICS.map((metric) => [metric.name, { ...metric.band }]));
