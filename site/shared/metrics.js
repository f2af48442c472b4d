// Every metric perfgate measures, defined once. Each entry carries what every reader needs:
//   name        the trend line's identity in the history, "<benchmark id> - <name>": never rename one
//   label, unit, direction ('bigger' or 'smaller' is better)
//   fromRun, fromSummary   how it is read from a run record (bench/results/record.js) and from a
//               benchmark's summary
//   summarise   instead of fromSummary: how its runs' values make the summary's (bench/results/metrics.js
//               SUMMARIES: perRequest, weighted by each run's completed requests; max; mean), so that a
//               new metric is its entry and the reader that puts it in the run record; an undefined or
//               null value is absent (the run record says why), never zero
//   agent       read by the runtime agent (bench/measurement/runtime-agent/): measured only in a run
//               with --runtime-metrics (runtimeMetrics in a config)
//   rangeFromSummary  the `range` text of its github-action-benchmark entry (the runs' spread)
//   table       its column in a run's markdown table (bench/results/markdown.js): title, format
//               (a formatter of bench/core/format.js) and the column it follows; none: not in the table
//   siteDefault shown before any metric is chosen on the trend site
//   search      found by a search over loads (bench --find-knee), not read from a run: never in a
//               run's summary, so never an SLO's metric
// and, for a metric compare judges (bench/comparison/, bench/stats/verdict.js):
//   sampleKey   the field of compare's per-round sample that holds it
//   band        its default verdict band, { threshold, minimumEffect } as fractions: an interval
//               wholly beyond ±minimumEffect is a change, one on one side of zero inside ±threshold a
//               small change; "no change" lies inside the no-change margin, noChangeMargin when set,
//               else a share of the band (bench/comparison/rounds.js, bench/stats/verdict.js)
//   bandFlags   the compare flag that sets each part of the band (flags may be shared; a part
//               without one keeps its default)
//   bandConfig  the key of a perfgate.config `thresholds` entry that sets each part
//   decides     may call the benchmark's verdict: rank (lower calls first), clientDependent (left
//               out when the load generator was the bottleneck), fallback (decides when no other
//               deciding metric was measured in every round), models (the load points it decides
//               at, site/shared/load-point.js: 'closed', 'open'; every one when absent), sameRuntime
//               (left out, with a note, when the two sides run on different runtimes)
//   inEveryComparison   every comparison.json has its verdict and samples (its schema requires them)
// The order of the list is the order of the tables, the history files and the trend site.
//
// The file is plain data with no imports, in site/shared/ (the modules both the trend site, in
// the browser without a build step, and perfgate's commands run) because the site orders its
// metrics by it too; bench/results/metrics.js derives what perfgate's commands need from it.

const MB = 1024 * 1024;
const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;
const megabytes = (bytes) => (bytes === undefined ? undefined : round(bytes / MB, 2));

export const METRIC_REGISTRY = [
  {
    name: 'req/s',
    label: 'Requests/sec',
    unit: 'req/s',
    direction: 'bigger',
    fromRun: (run) => run.requests.mean,
    fromSummary: (summary) => summary.requests.mean,
    rangeFromSummary: (summary) =>
      summary.requests.mean > 0
        ? `± ${((100 * summary.requests.stddev) / summary.requests.mean).toFixed(1)}%`
        : undefined,
    table: { title: 'Requests/sec', format: 'integer', after: 'Connections' },
    siteDefault: true,
    sampleKey: 'requestsPerSecond',
    band: { threshold: 0.05, minimumEffect: 0.02 },
    bandFlags: { threshold: 'threshold', minimumEffect: 'min-effect', noChangeMargin: 'no-change-margin' },
    bandConfig: { threshold: 'threshold', minimumEffect: 'minEffect', noChangeMargin: 'noChangeMargin' },
    // A lower bound only when the client was the bottleneck; at an open point, the offered rate.
    decides: { rank: 2, clientDependent: true, fallback: true, models: ['closed'] },
    inEveryComparison: true,
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
    table: { title: 'p99 Latency', format: 'milliseconds', after: 'Avg Latency' },
    siteDefault: true,
    sampleKey: 'p99LatencyMs',
    band: { threshold: 0.1, minimumEffect: 0.1 },
    bandFlags: { threshold: 'p99-threshold', minimumEffect: 'p99-threshold' },
    bandConfig: { threshold: 'p99Threshold', minimumEffect: 'p99Threshold' },
    // At a fixed arrival rate, the tail is what users wait for (and the client's lag when it fell behind).
    decides: { rank: 2, clientDependent: true, fallback: true, models: ['open'] },
    inEveryComparison: true,
  },
  {
    // The 1-in-1,000 tail, where an occasional stall shows first: only from a run or round of enough
    // requests (bench/measurement/latency-histogram.js), so it decides only where every round had them.
    name: 'p99.9 latency',
    label: 'p99.9 latency',
    unit: 'ms',
    direction: 'smaller',
    fromRun: (run) => run.latencyMs.p999,
    fromSummary: (summary) => summary.latencyMs.p999,
    sampleKey: 'p999LatencyMs',
    // The tail's band, set with p99's.
    band: { threshold: 0.1, minimumEffect: 0.1 },
    bandFlags: { threshold: 'p99-threshold', minimumEffect: 'p99-threshold' },
    bandConfig: { threshold: 'p99Threshold', minimumEffect: 'p99Threshold' },
    decides: { rank: 4, clientDependent: true, models: ['open'] },
  },
  {
    // The server process group's CPU time (user + system, children included) over the
    // measured window, per completed request: independent of how fast the client is, and
    // the least noisy per-round ratio (bench/stats/METHOD.md), so it calls verdicts first.
    name: 'CPU µs/request',
    label: 'Server CPU µs/request',
    unit: 'µs',
    direction: 'smaller',
    fromRun: (run) => run.server.cpuMicrosPerRequest,
    fromSummary: (summary) => summary.cpuMicrosPerRequest,
    table: { title: 'CPU µs/request', format: 'microseconds', after: 'Max Latency' },
    sampleKey: 'cpuMicrosPerRequest',
    band: { threshold: 0.05, minimumEffect: 0.02 },
    bandFlags: { threshold: 'threshold', minimumEffect: 'min-effect', noChangeMargin: 'no-change-margin' },
    bandConfig: { threshold: 'threshold', minimumEffect: 'minEffect', noChangeMargin: 'noChangeMargin' },
    decides: { rank: 1 },
  },
  {
    name: 'error %',
    label: 'Error %',
    unit: '%',
    direction: 'smaller',
    fromRun: (run) => run.errorPct,
    fromSummary: (summary) => summary.errorPct,
    table: { title: 'Error %', format: 'percentValue', after: 'Total Errors' },
  },
  {
    name: 'peak RSS',
    label: 'Peak RSS',
    unit: 'MB',
    direction: 'smaller',
    fromRun: (run) => round(run.server.peakRssBytes / MB, 1),
    fromSummary: (summary) => round(summary.peakRssBytes / MB, 1),
  },
  // Read by the runtime agent in the server's Node processes (bench/measurement/runtime-agent/) over
  // the measured window, per request counted inside the server; absent for other runtimes.
  {
    // Counted, not timed: its duet A/A per-round spread is a fraction of CPU µs/request's
    // (bench/stats/METHOD.md), so it may call the verdict, after the two timed metrics: a change
    // that allocates more per request is a regression even when it is not yet slower.
    name: 'heap bytes/request',
    label: 'Heap allocated/request',
    unit: 'B',
    direction: 'smaller',
    fromRun: (run) => run.server.runtime?.heapBytesPerRequest,
    agent: true,
    summarise: 'perRequest',
    table: { title: 'Heap B/request', format: 'integer', after: 'CPU µs/request' },
    sampleKey: 'heapBytesPerRequest',
    band: { threshold: 0.05, minimumEffect: 0.02 },
    bandFlags: { threshold: 'alloc-threshold', minimumEffect: 'alloc-min-effect' },
    bandConfig: { threshold: 'allocThreshold', minimumEffect: 'allocMinEffect' },
    // Another runtime's JIT and built-ins allocate differently: only one runtime's figures compare.
    decides: { rank: 3, sameRuntime: true },
  },
  {
    name: 'GC pause/request',
    label: 'GC pause/request',
    unit: 'µs',
    direction: 'smaller',
    fromRun: (run) => run.server.runtime?.gcPauseMicrosPerRequest,
    agent: true,
    summarise: 'perRequest',
  },
  {
    // How late the event loop's timer ran: a step that blocks the loop raises it for every connection.
    name: 'event-loop delay p99',
    label: 'Event-loop delay p99',
    unit: 'ms',
    direction: 'smaller',
    fromRun: (run) => run.server.runtime?.eventLoopDelayMs?.p99,
    agent: true,
    summarise: 'max',
  },
  {
    name: 'event-loop utilization',
    label: 'Event-loop utilization',
    unit: '%',
    direction: 'smaller',
    fromRun: (run) => run.server.runtime?.eventLoopUtilizationPct,
    agent: true,
    summarise: 'mean',
  },
  {
    // After a forced full GC outside the window: what the requests left behind.
    name: 'heap used after',
    label: 'Heap used after the load',
    unit: 'MB',
    direction: 'smaller',
    fromRun: (run) => megabytes(run.server.runtime?.heapUsedAfterBytes),
    agent: true,
    summarise: 'max',
  },
  {
    // A soak's (--soak-every): the heap after forced full GCs, fitted after the window's warm-up.
    name: 'heap growth/10k requests',
    label: 'Heap growth per 10,000 requests',
    unit: 'B',
    direction: 'smaller',
    fromRun: (run) => run.server.runtime?.soak?.growthBytesPer10kRequests,
    agent: true,
    summarise: 'mean',
  },
  {
    // Buffers and ArrayBuffers live outside the V8 heap, so outside heap bytes/request.
    name: 'external memory after',
    label: 'External memory after the load',
    unit: 'MB',
    direction: 'smaller',
    fromRun: (run) => megabytes(run.server.runtime?.externalAfterBytes),
    agent: true,
    summarise: 'max',
  },
  {
    // bench --find-knee's, over a search of loads, not one run's: the highest offered rate at which
    // every SLO held (its interval in the entry's range; bench/results/benchmark-action.js kneeEntries).
    name: 'knee rate',
    label: 'Knee: highest rate under the SLOs',
    unit: 'req/s',
    direction: 'bigger',
    fromRun: () => undefined,
    fromSummary: () => undefined,
    siteDefault: true,
    search: 'knee',
  },
];
