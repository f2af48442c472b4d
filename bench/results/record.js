// Turns one measured load (the engine's load sample, bench/measurement/load.js, plus the sampler's
// readings) into the run record of perfgate's result file, and several runs of a benchmark
// into its summary. Pure functions: tested without starting anything.
import { latencySummary, mergeHistograms } from '../measurement/latency-histogram.js';
import { mean, standardDeviation as stddev } from '../stats/descriptive.js';
import { summarisedMetrics } from './metrics.js';
import { clientFellBehind } from '../../site/shared/load-point.js';

// Above this share of the cores it may use, the load generator, not the server, sets the pace.
const CLIENT_SATURATION_PCT = 90;
const CLIENT_SATURATED_WARNING =
  'client saturated: req/s is a client-bound lower bound; CPU µs/request still measures the server';
// An open-model client that did not send on schedule: its own lag is in the latency.
const behindWarning = ({ rate, due, late, unsent, lagToleranceMs }) =>
  `client behind schedule at ${rate} req/s: of ${due} requests due, ${late} sent over ${lagToleranceMs} ms late and ${unsent} never sent; latency includes the client's lag, not only the server's: lower the rate or give the load more workers`;

// A window in which no request completed, failed or timed out: they were all still connecting or in
// flight when it ended, so its zeros measure nothing.
const nothingCompletedWarning = (seconds) =>
  `no request completed, failed or timed out in the ${seconds} s window (all were still connecting or in flight): its zeros measure nothing; measure longer than the request timeout (--duration, --timeout) or lower the load`;

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentOf = (part, whole) => (whole > 0 ? round((100 * part) / whole, 3) : 0);

// The smallest or largest of the values an engine gave (null: it counts no seconds).
const extreme = (pick, values) =>
  values.some((value) => value !== null) ? pick(...values.filter((value) => value !== null)) : null;

// Pure: server CPU seconds over the window / completed requests, in µs (null without requests).
export const cpuMicrosPerRequest = (cpuSeconds, requests) =>
  requests > 0 ? round((cpuSeconds * 1e6) / requests, 3) : null;

// The machine's steal %: the mean over its cores (each core's share of time given to other guests).
const meanStealPct = (cores) =>
  cores.length ? round(cores.reduce((sum, core) => sum + (core.stealPct ?? 0), 0) / cores.length, 1) : 0;

/**
 * @param {object} load      the load sample (bench/measurement/load.js)
 * @param {object} sampled   the sampler's readings (bench/measurement/sampling/sampler.js)
 * @param {{clientCores: number, runtime?: object}} how  clientCores: the cores the client processes could
 *   use at most (min of the load cores and its processes/threads): its CPU % is judged against them;
 *   runtime: the runtime agent's figures (bench/measurement/runtime-agent/window.js)
 */
export function runRecord(load, sampled, { clientCores, runtime }) {
  const attempted = load.requests.total + load.errors;
  const seconds = load.durationSeconds || sampled.seconds;
  const perSecond = load.requests.perSecond;
  const clientCpuPct = round((100 * load.client.cpuSeconds) / sampled.seconds, 1);
  const cpuBound = clientCpuPct >= CLIENT_SATURATION_PCT * clientCores;
  // An open-model client behind its schedule is saturated too, whatever its CPU says.
  const behind = load.schedule?.behind === true;
  const saturated = clientFellBehind({ cpuBound, schedule: load.schedule });
  return {
    engine: load.engine,
    durationSeconds: seconds,
    requests: {
      mean: round(load.requests.total / seconds),
      // Spread across seconds, where the engine counts them (wrk does not).
      stddev: round(stddev(perSecond)),
      min: perSecond.length ? Math.min(...perSecond) : null,
      max: perSecond.length ? Math.max(...perSecond) : null,
      total: load.requests.total,
      perSecond,
    },
    latencyMs: latencySummary(mergeHistograms([load.latencyHistogram])),
    latencyHistogram: load.latencyHistogram,
    bytesPerSecond: round(load.bytes / seconds),
    responses: load.responses,
    errors: load.errors,
    timeouts: load.timeouts,
    errorPct: percentOf(load.errors, attempted),
    timeoutPct: percentOf(load.timeouts, attempted),
    errorCodes: load.errorCodes,
    server: {
      ...sampled.server,
      cpuMicrosPerRequest: cpuMicrosPerRequest(sampled.server.cpuSeconds, load.requests.total),
      // The runtime agent's figures (bench/measurement/runtime-agent/), or why they are absent.
      ...(runtime ? { runtime } : {}),
    },
    cores: sampled.cores,
    // What the machine was while this run measured: the CPU model it reported and the share of
    // its CPU time the hypervisor gave other guests (steal, a shared or hosted runner's noise).
    ...(sampled.cpuModel ? { host: { cpuModel: sampled.cpuModel, stealPct: meanStealPct(sampled.cores) } } : {}),
    loadGenerator: {
      engine: load.engine,
      processes: load.processes,
      cpuPct: clientCpuPct,
      cpuSeconds: round(load.client.cpuSeconds, 3),
      saturated,
      ...(load.schedule ? { schedule: load.schedule } : {}),
    },
    warnings: [
      ...load.warnings,
      ...(cpuBound ? [CLIENT_SATURATED_WARNING] : []),
      ...(behind ? [behindWarning(load.schedule)] : []),
      ...(load.requests.total + load.errors + load.timeouts === 0 ? [nothingCompletedWarning(seconds)] : []),
    ],
  };
}

// Why a run has no memory or event-loop figures (a server on another runtime: bench/measurement/runtime-agent/).
const runtimeAbsent = (run) =>
  run.server.runtime?.absent ? [`no memory or event-loop figures: ${run.server.runtime.absent}`] : [];

// One benchmark over its repetitions: mean throughput (spread across runs when there are
// several, across seconds when there is one), latency percentiles of the merged histogram
// of all runs (not a median of per-run percentiles), CPU µs/request over all requests.
export function summarizeRuns(runs) {
  const requestMeans = runs.map((run) => run.requests.mean);
  const total = (pick) => runs.reduce((sum, run) => sum + pick(run), 0);
  const errors = total((run) => run.errors);
  const timeouts = total((run) => run.timeouts);
  const completed = total((run) => run.requests.total);
  const attempted = completed + errors;
  return {
    runs: runs.length,
    engine: runs[0].engine,
    requests: {
      mean: round(mean(requestMeans)),
      stddev: round(runs.length > 1 ? stddev(requestMeans) : runs[0].requests.stddev),
      min: extreme(
        Math.min,
        runs.map((run) => run.requests.min),
      ),
      max: extreme(
        Math.max,
        runs.map((run) => run.requests.max),
      ),
      total: completed,
      samples: runs.reduce((count, run) => count + run.requests.perSecond.length, 0),
    },
    latencyMs: latencySummary(mergeHistograms(runs.map((run) => run.latencyHistogram))),
    bytesPerSecond: round(mean(runs.map((run) => run.bytesPerSecond))),
    errors,
    timeouts,
    errorPct: percentOf(errors, attempted),
    timeoutPct: percentOf(timeouts, attempted),
    cpuMicrosPerRequest: cpuMicrosPerRequest(
      total((run) => run.server.cpuSeconds),
      completed,
    ),
    serverCpuPct: round(mean(runs.map((run) => run.server.cpuPct)), 1),
    peakRssBytes: Math.max(...runs.map((run) => run.server.peakRssBytes)),
    loadGeneratorCpuPct: round(mean(runs.map((run) => run.loadGenerator.cpuPct)), 1),
    clientSaturated: runs.some((run) => run.loadGenerator.saturated),
    // The registry's metrics that say how they are summarised (site/shared/metrics.js `summarise`).
    metrics: summarisedMetrics(runs),
    warnings: [...new Set([...runs.flatMap((run) => run.warnings), ...runs.flatMap(runtimeAbsent)])],
  };
}
