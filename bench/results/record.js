// Turns one measured load (autocannon's result plus the sampler's readings) into the run
// record of perfgate's result file, and several runs of a benchmark into its summary.
// Pure functions: tested without starting anything.
import { mean, median, standardDeviation as stddev } from '../stats/descriptive.js';

// Above this share of its cores, the load generator, not the server, sets the pace.
export const CLIENT_SATURATION_PCT = 90;

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentOf = (part, whole) => (whole > 0 ? round((100 * part) / whole, 3) : 0);

export function runRecord({ result, perSecond, errorCodes, warnings }, sampled, { loadCores }) {
  const attempted = result.requests.total + result.errors;
  const saturated = sampled.loadGenerator.cpuPct >= CLIENT_SATURATION_PCT * loadCores;
  return {
    durationSeconds: result.duration,
    requests: {
      mean: result.requests.mean,
      stddev: result.requests.stddev,
      min: result.requests.min,
      max: result.requests.max,
      total: result.requests.total,
      perSecond,
    },
    latencyMs: {
      avg: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    bytesPerSecond: result.throughput.mean,
    responses: { '2xx': result['2xx'], non2xx: result.non2xx },
    errors: result.errors,
    timeouts: result.timeouts,
    errorPct: percentOf(result.errors, attempted),
    timeoutPct: percentOf(result.timeouts, attempted),
    errorCodes,
    server: sampled.server,
    cores: sampled.cores,
    loadGenerator: { ...sampled.loadGenerator, saturated },
    warnings: saturated ? [...warnings, 'client saturated: numbers are a lower bound'] : warnings,
  };
}

// One benchmark over its repetitions: mean throughput (spread across runs when there are
// several, across seconds when there is one), median latency percentiles, summed counts.
export function summarizeRuns(runs) {
  const requestMeans = runs.map((run) => run.requests.mean);
  const total = (pick) => runs.reduce((sum, run) => sum + pick(run), 0);
  const errors = total((run) => run.errors);
  const timeouts = total((run) => run.timeouts);
  const attempted = total((run) => run.requests.total) + errors;
  return {
    runs: runs.length,
    requests: {
      mean: round(mean(requestMeans)),
      stddev: round(runs.length > 1 ? stddev(requestMeans) : runs[0].requests.stddev),
      min: Math.min(...runs.map((run) => run.requests.min)),
      max: Math.max(...runs.map((run) => run.requests.max)),
      total: total((run) => run.requests.total),
      samples: runs.reduce((count, run) => count + run.requests.perSecond.length, 0),
    },
    latencyMs: {
      avg: round(median(runs.map((run) => run.latencyMs.avg))),
      p50: median(runs.map((run) => run.latencyMs.p50)),
      p90: median(runs.map((run) => run.latencyMs.p90)),
      p99: median(runs.map((run) => run.latencyMs.p99)),
      max: Math.max(...runs.map((run) => run.latencyMs.max)),
    },
    bytesPerSecond: round(mean(runs.map((run) => run.bytesPerSecond))),
    errors,
    timeouts,
    errorPct: percentOf(errors, attempted),
    timeoutPct: percentOf(timeouts, attempted),
    serverCpuPct: round(mean(runs.map((run) => run.server.cpuPct)), 1),
    peakRssBytes: Math.max(...runs.map((run) => run.server.peakRssBytes)),
    loadGeneratorCpuPct: round(mean(runs.map((run) => run.loadGenerator.cpuPct)), 1),
    clientSaturated: runs.some((run) => run.loadGenerator.saturated),
    warnings: [...new Set(runs.flatMap((run) => run.warnings))],
  };
}
