// What the runtime agents of one server read over the measured window (./agent.mjs, one reading
// per Node process), checked and turned into the run record's figures per request. Pure.
//
// Bytes allocated: V8's own count (total_allocated_bytes) where the runtime has it, else the
// used heap's growth plus what the window's GCs freed (v8.GCProfiler); both, when both exist, so
// the second is checked against the first. A server of several processes (node-cluster) sums
// its requests, bytes, GC pauses and heaps; its event loop's figures are the worst process's.

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;

// Agent files are written by the side's process: anything but finite non-negative numbers in
// the expected places is not a reading.
const isCount = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isSigned = (value) => typeof value === 'number' && Number.isFinite(value);

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
  if (requests === 0) return { absent: 'no request reached a Node.js process that ran the runtime agent' };
  const perRequest = (total, digits) => round(total / requests, digits);
  const profiled = perRequest(sum(readings, profiledBytes), 1);
  const counted = readings.every((reading) => reading.heap.totalAllocated !== undefined)
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
    heapBytesPerRequest: counted ?? profiled,
    heapBytesCountedBy: counted === null ? 'gc-profiler' : 'total_allocated_bytes',
    ...(counted === null ? {} : { gcProfilerHeapBytesPerRequest: profiled }),
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
  };
}
