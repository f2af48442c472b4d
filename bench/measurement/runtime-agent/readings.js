// What the runtime agents of one server read over the measured window (./agent.mjs, one reading
// per Node process), checked and turned into the run record's figures per request. Pure.
//
// Bytes allocated: the used heap's growth plus what the window's GCs freed (v8.GCProfiler), on
// every Node, so that runtimes compare; beside it V8's own count (total_allocated_bytes) where the
// runtime has it, as a check (bench/stats/METHOD.md §8: they differ by a near-constant). A server
// of several processes (node-cluster) sums its requests, bytes, GC pauses and heaps; its event
// loop's figures are the worst process's.
import { linearTrend } from '../../stats/linear-trend.js';

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;

// A soak's growth is fitted after the window's first third, its warm-up (where JIT code, feedback
// vectors and the string table grow), on at least this many heap samples.
const WARMUP_SHARE = 1 / 3;
const TREND_SAMPLES = 3;
const PER_REQUESTS = 10_000;

/**
 * A soak's heap samples ([requests so far, heap used after a full GC], in order) as the heap's
 * warm-up growth and its growth per 10,000 requests after it, with a 95 % interval; or { absent }.
 */
export function heapGrowth(samples) {
  const warmup = Math.max(1, Math.floor(samples.length * WARMUP_SHARE));
  const trend = samples.slice(warmup);
  if (trend.length < TREND_SAMPLES || trend.at(-1)[0] === trend[0][0])
    return {
      absent: `${samples.length} heap samples, too few for a trend after the warm-up's ${warmup} (it needs ${warmup + TREND_SAMPLES}): lengthen --duration or shorten --soak-every`,
    };
  const { slope, interval } = linearTrend(trend);
  return {
    samples: samples.length,
    warmupSamples: warmup,
    warmupGrowthBytes: trend[0][1] - samples[0][1],
    growthBytesPer10kRequests: Math.round(slope * PER_REQUESTS),
    interval: interval.map((bound) => Math.round(bound * PER_REQUESTS)),
  };
}

// A soak reads one serving process: a cluster's workers are not aligned in time to be summed.
function soakOf(readings) {
  if (!readings.some((reading) => reading.heapAfterGc)) return {};
  const serving = readings.filter((reading) => reading.requests > 0);
  if (serving.length !== 1)
    return { soak: { absent: `a soak reads one serving process, and ${serving.length} served requests` } };
  return { soak: heapGrowth(serving[0].heapAfterGc) };
}

// Agent files are written by the side's process: anything but finite non-negative numbers in
// the expected places is not a reading.
const isCount = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isSigned = (value) => typeof value === 'number' && Number.isFinite(value);

/** What is wrong with a reading an agent wrote, or null. */
export function readingProblem(reading) {
  const { requests, heap, gc, loop, after } = reading ?? {};
  const counts = [
    requests,
    heap?.usedStart,
    heap?.usedEnd,
    gc?.pauseMicros,
    loop?.resolutionMs,
    loop?.samples,
    loop?.p50Ns,
    loop?.p99Ns,
    loop?.maxNs,
    loop?.utilization,
    after?.usedHeap,
    after?.external,
  ];
  if (!counts.every(isCount) || !isSigned(heap.freedByGc)) return 'a reading without its numbers';
  if (heap.totalAllocated !== undefined && !isCount(heap.totalAllocated)) return 'a reading without its numbers';
  if (typeof gc.counts !== 'object' || gc.counts === null || !Object.values(gc.counts).every(isCount))
    return 'a reading without its GC counts';
  const { heapAfterGc } = reading;
  if (
    heapAfterGc !== undefined &&
    !(
      Array.isArray(heapAfterGc) &&
      heapAfterGc.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every(isCount))
    )
  )
    return 'a reading with malformed heap samples';
  return null;
}

const sum = (readings, pick) => readings.reduce((total, reading) => total + pick(reading), 0);
const worst = (readings, pick) => Math.max(...readings.map(pick));

// The GC profiler's count of one reading: the heap's growth plus what its GCs freed.
const profiledBytes = (reading) => reading.heap.usedEnd - reading.heap.usedStart + reading.heap.freedByGc;

// Each sample is its timer's lateness plus the timer's own period.
const delayMs = (nanoseconds, resolutionMs) => round(Math.max(0, nanoseconds / 1e6 - resolutionMs), 3);

/**
 * @param {object[]} readings  one per process that ran the agent
 * @returns {object} the figures, or { absent: reason }
 */
export function runtimeFigures(readings) {
  if (!readings.length) return { absent: 'no Node.js process of the server ran the runtime agent' };
  const requests = sum(readings, (reading) => reading.requests);
  // Requests are counted where node:http starts them: a server on uWebSockets.js has none.
  if (requests === 0)
    return {
      absent:
        'no request reached node:http in a process that ran the runtime agent (a server on uWebSockets.js, such as uws or hyper-express, is not counted)',
    };
  const perRequest = (total, digits) => round(total / requests, digits);
  const profiled = perRequest(sum(readings, profiledBytes), 1);
  const v8Counted = readings.every((reading) => reading.heap.totalAllocated !== undefined)
    ? perRequest(
        sum(readings, (reading) => reading.heap.totalAllocated),
        1,
      )
    : null;
  const serving = readings.filter((reading) => reading.requests > 0);
  const gcCounts = {};
  for (const reading of readings)
    for (const [kind, count] of Object.entries(reading.gc.counts)) gcCounts[kind] = (gcCounts[kind] ?? 0) + count;
  return {
    processes: readings.length,
    requests,
    heapBytesPerRequest: profiled,
    ...(v8Counted === null ? {} : { v8AllocatedBytesPerRequest: v8Counted }),
    gcPauseMicrosPerRequest: perRequest(
      sum(readings, (reading) => reading.gc.pauseMicros),
      3,
    ),
    gcCounts,
    eventLoopDelayMs: {
      p50: worst(serving, (reading) => delayMs(reading.loop.p50Ns, reading.loop.resolutionMs)),
      p99: worst(serving, (reading) => delayMs(reading.loop.p99Ns, reading.loop.resolutionMs)),
      max: worst(serving, (reading) => delayMs(reading.loop.maxNs, reading.loop.resolutionMs)),
      resolutionMs: worst(serving, (reading) => reading.loop.resolutionMs),
    },
    eventLoopUtilizationPct: round(100 * worst(serving, (reading) => reading.loop.utilization), 2),
    heapUsedAfterBytes: sum(readings, (reading) => reading.after.usedHeap),
    externalAfterBytes: sum(readings, (reading) => reading.after.external),
    ...soakOf(readings),
  };
}
