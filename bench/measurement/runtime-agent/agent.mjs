// Preloaded into every Node process of a server under measurement (NODE_OPTIONS=--import=<this
// file>, composed by bench/measurement/process/server.js's sideCommand), so that built-in variants,
// a user's own server and its cluster workers are all read the same way, with no change to their
// code. It runs in the side's process, possibly an older commit's checkout: it imports nothing but
// Node's built-ins. It reads memory and the event loop only between two signals from the harness
// (bench/measurement/runtime-agent/window.js), so start-up and warm-up stay out:
//   on load:        writes <dir>/<pid>.runtime-agent
//   SIGUSR2 (1st):  starts the window, then writes <dir>/<pid>.runtime-started
//   SIGUSR2 (2nd):  ends it, forces a full GC (outside the window) and writes <dir>/<pid>.runtime.json
// In a soak (PERFGATE_AGENT_HEAP_EVERY_MS) it also forces a full GC at that interval inside the
// window and records the heap used after each.
// The profiler's agent (bench/comparison/profile/agent.mjs) answers the same signal; the two are
// never loaded together.
import diagnosticsChannel from 'node:diagnostics_channel';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.PERFGATE_AGENT_DIR;
// A soak (a leak check): the heap used after a forced full GC, every this many ms of the window.
const HEAP_EVERY_MS = Number(process.env.PERFGATE_AGENT_HEAP_EVERY_MS ?? 0);
// The event-loop delay timer's period (Node's default): each firing wakes an idle server, which
// at 1 ms cost a few % of CPU µs/request (bench/stats/METHOD.md). A sample is its timer's
// lateness plus this period, which the harness subtracts.
const RESOLUTION_MS = 10;

function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

// A full, synchronous GC on demand: after the window, so its pause is not measured (a soak's too).
function fullGc() {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

// [requests served in the window so far, heap used after a full GC].
function heapSample(window, requests, gc) {
  gc();
  window.heapAfterGc.push([requests.count - window.requests, v8.getHeapStatistics().used_heap_size]);
}

function startWindow(requests, gc) {
  // A soak's first sample: collected before the window, so that its garbage is not counted in it.
  if (HEAP_EVERY_MS > 0) gc();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  const heap = v8.getHeapStatistics();
  const window = {
    profiler,
    delay,
    requests: requests.count,
    usedHeap: heap.used_heap_size,
    totalAllocated: heap.total_allocated_bytes,
    utilization: performance.eventLoopUtilization(),
    startedAt: performance.now(),
    heapAfterGc: [[0, heap.used_heap_size]],
  };
  if (HEAP_EVERY_MS > 0) window.soak = setInterval(() => heapSample(window, requests, gc), HEAP_EVERY_MS);
  return window;
}

// What the window read, as raw sums: the harness turns them into figures per request.
function endWindow(window, requests, gc) {
  clearInterval(window.soak);
  const heap = v8.getHeapStatistics();
  const { statistics } = window.profiler.stop();
  window.delay.disable();
  const gcs = {};
  let freedBytes = 0;
  let pauseMicros = 0;
  for (const each of statistics) {
    gcs[each.gcType] = (gcs[each.gcType] ?? 0) + 1;
    freedBytes += each.beforeGC.heapStatistics.usedHeapSize - each.afterGC.heapStatistics.usedHeapSize;
    pauseMicros += each.cost;
  }
  const reading = {
    runtime: process.version,
    windowMs: performance.now() - window.startedAt,
    requests: requests.count - window.requests,
    heap: {
      usedStart: window.usedHeap,
      usedEnd: heap.used_heap_size,
      freedByGc: freedBytes,
      ...(window.totalAllocated !== undefined
        ? { totalAllocated: heap.total_allocated_bytes - window.totalAllocated }
        : {}),
    },
    gc: { counts: gcs, pauseMicros },
    loop: {
      resolutionMs: RESOLUTION_MS,
      samples: window.delay.count,
      p50Ns: window.delay.percentile(50),
      p99Ns: window.delay.percentile(99),
      maxNs: window.delay.max,
      utilization: performance.eventLoopUtilization(window.utilization).utilization,
    },
    ...(window.soak ? { heapAfterGc: window.heapAfterGc } : {}),
  };
  gc();
  const after = v8.getHeapStatistics();
  const memory = process.memoryUsage();
  return { ...reading, after: { usedHeap: after.used_heap_size, external: memory.external } };
}

// Worker threads have heaps of their own and no signals: the process's main thread reads.
if (dir && isMainThread && !process.versions.bun) {
  const gc = fullGc();
  // Counted inside the server, so a figure per request does not hang on the client's count.
  const requests = { count: 0 };
  diagnosticsChannel.subscribe('http.server.request.start', () => {
    requests.count += 1;
  });
  let window;
  process.on('SIGUSR2', () => {
    if (!window) {
      window = startWindow(requests, gc);
      writeAtomic(join(dir, `${process.pid}.runtime-started`), '');
      return;
    }
    const reading = endWindow(window, requests, gc);
    window = undefined;
    writeAtomic(join(dir, `${process.pid}.runtime.json`), JSON.stringify(reading));
  });
  const announced = join(dir, `${process.pid}.runtime-agent`);
  writeAtomic(announced, '');
  // A process that ends before the window (a launcher's short-lived step) is not waited for.
  process.on('exit', () => rmSync(announced, { force: true }));
}
