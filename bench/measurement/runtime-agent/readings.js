// What the runtime agents of one server read over the measured window (./agent.mjs, one reading
// per Node process), checked and turned into the run record's figures per request. Pure.
//
// Bytes allocated: the used heap's growth plus what the window's GCs freed (v8.GCProfiler), on
// every Node, so that runtimes compare; beside it V8's own count (total_allocated_bytes) where the
// runtime has it, as a check (bench/stats/METHOD.md §8: they differ by a near-constant). A server
// of several processes (node-cluster) sums its requests, bytes, GC pauses and heaps; its event
// loop's figures are the worst process's; a soak fits one heap growth through all its processes.
import { pooledTrend, trendMoments } from '../../stats/linear-trend.js';
import { settledStart } from '../../stats/settled-trend.js';

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;

// A soak's growth is fitted after each process's warm-up (where JIT code, feedback vectors and the
// string table grow), which ends where its growth settles (bench/stats/settled-trend.js), on at
// least this many heap samples.
const TREND_SAMPLES = 3;
const PER_REQUESTS = 10_000;

// One process's heap samples: its warm-up, and its trend's centred sums; or null when too few.
function processSoak(samples) {
  const start = settledStart(samples, TREND_SAMPLES);
  if (start === null || samples.at(-1)[0] === samples[start][0]) return null;
  return {
    warmupSamples: start,
    warmupGrowthBytes: samples[start][1] - samples[0][1],
    fit: trendMoments(samples.slice(start)),
  };
}

/**
 * The growth per 10,000 requests of trends' centred sums (one per process and round, each at its
 * own heap level), with its 95 % interval; or null when they hold no trend.
 */
export function growthPer10k(fits) {
  const trend = pooledTrend(fits);
  if (!trend) return null;
  return {
    growthBytesPer10kRequests: Math.round(trend.slope * PER_REQUESTS),
    interval: trend.interval.map((bound) => Math.round(bound * PER_REQUESTS)),
  };
}

/**
 * A soak's heap samples, one list per serving process ([requests it served so far, heap used
 * after a full GC], in order), as each process's warm-up growth and the heap's growth per 10,000
 * requests after it, one slope for all processes; or { absent }.
 */
export function heapGrowth(series) {
  if (!series.length) return { absent: 'no process that served requests read its heap' };
  const read = series.map(processSoak);
  const short = series.find((_, index) => read[index] === null);
  if (short)
    return {
      absent: `${short.length} heap samples, too few to set a warm-up apart and fit a trend (it needs ${TREND_SAMPLES + 1}): lengthen --duration or shorten --soak-every`,
    };
  const fits = read.map((each) => each.fit);
  return {
    processes: series.length,
    samples: series.reduce((total, samples) => total + samples.length, 0),
    warmupSamples: read.reduce((total, each) => total + each.warmupSamples, 0),
    warmupGrowthBytes: read.reduce((total, each) => total + each.warmupGrowthBytes, 0),
    ...growthPer10k(fits),
    fit: fits,
  };
}

// Every serving process's samples: a cluster's workers each have a heap of their own, read
// against the requests each served, so one slope holds for all of them.
function soakOf(readings) {
  if (!readings.some((reading) => reading.heapAfterGc)) return {};
  const serving = readings.filter((reading) => reading.requests > 0 && reading.heapAfterGc);
  return { soak: heapGrowth(serving.map((reading) => reading.heapAfterGc)) };
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
