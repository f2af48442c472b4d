// Preloaded into every Node process of a server under profiling (NODE_OPTIONS=--import=<this
// file>), so that built-in variants, a user's own Node server and its cluster workers are all
// profiled the same way, with no change to their code. It profiles only between two signals
// from the harness, so start-up and warm-up stay out of the profile:
//   SIGUSR2 (1st): start the profilers PERFGATE_PROFILE_KINDS names (cpu, allocation; cpu when
//                  unset), then write <dir>/<pid>.started
//   SIGUSR2 (2nd): stop them and write <dir>/<pid>.heapprofile, then <dir>/<pid>.cpuprofile
//                  (each atomically)
// On load it writes <dir>/<pid>.agent, so the harness signals only processes that run it
// (never nginx or another program in the same process group, for which SIGUSR2 means
// something else).
import { Session } from 'node:inspector/promises';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';

const dir = process.env.PERFGATE_PROFILE_DIR;
const kinds = new Set((process.env.PERFGATE_PROFILE_KINDS ?? 'cpu').split(','));
// Sampling every 100 µs: requests cost tens of µs, so the default 1 ms would see few of them.
const SAMPLING_INTERVAL_US = Number(process.env.PERFGATE_PROFILE_INTERVAL_US ?? 100);
// V8's default mean bytes between allocation samples: a sample walks the stack, so a shorter
// one costs the CPU profile taken in the same run.
const HEAP_SAMPLING_BYTES = 32 * 1024;

function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

async function start(session) {
  if (kinds.has('allocation')) {
    await session.post('HeapProfiler.enable');
    // Every sampled allocation, not only what is still alive when sampling stops: without these
    // two, objects a request drops (collected by a scavenge or a full GC) are not in the profile.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: HEAP_SAMPLING_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  if (kinds.has('cpu')) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.post('Profiler.start');
  }
}

async function stop(session) {
  // Both stopped before either is written, so writing one is not in the other.
  const cpu = kinds.has('cpu') ? (await session.post('Profiler.stop')).profile : null;
  const heap = kinds.has('allocation') ? (await session.post('HeapProfiler.stopSampling')).profile : null;
  session.disconnect();
  if (heap) writeAtomic(join(dir, `${process.pid}.heapprofile`), JSON.stringify(heap));
  if (cpu) writeAtomic(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(cpu));
}

// V8's sampling heap profiler charges an allocation to the outermost function of an optimized
// frame: a function inlined into its caller would be named as the caller. Set before the server's
// code is optimized, so that every allocation keeps its own function (the CPU profile of the same
// run then times code that was not inlined).
if (dir && !process.versions.bun && kinds.has('allocation')) v8.setFlagsFromString('--no-turbo-inlining');

if (dir && !process.versions.bun) {
  let session;
  process.on('SIGUSR2', async () => {
    if (!session) {
      session = new Session();
      session.connect();
      await start(session);
      writeAtomic(join(dir, `${process.pid}.started`), '');
      return;
    }
    await stop(session);
  });
  writeAtomic(join(dir, `${process.pid}.agent`), '');
}
