// Preloaded into every Node process of a server under profiling (NODE_OPTIONS=--import=<this
// file>), so that built-in variants, a user's own Node server and its cluster workers are all
// profiled the same way, with no change to their code. It profiles only between two signals
// from the harness, so start-up and warm-up stay out of the profile:
//   SIGUSR2 (1st): start the V8 CPU profiler, then write <dir>/<pid>.started
//   SIGUSR2 (2nd): stop it and write <dir>/<pid>.cpuprofile (atomically)
// On load it writes <dir>/<pid>.agent, so the harness signals only processes that run it
// (never nginx or another program in the same process group, for which SIGUSR2 means
// something else).
import { Session } from 'node:inspector/promises';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.PERFGATE_PROFILE_DIR;
// Sampling every 100 µs: requests cost tens of µs, so the default 1 ms would see few of them.
const SAMPLING_INTERVAL_US = Number(process.env.PERFGATE_PROFILE_INTERVAL_US ?? 100);

function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

if (dir && !process.versions.bun) {
  let session;
  process.on('SIGUSR2', async () => {
    if (!session) {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
      await session.post('Profiler.start');
      writeAtomic(join(dir, `${process.pid}.started`), '');
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeAtomic(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(profile));
  });
  writeAtomic(join(dir, `${process.pid}.agent`), '');
}
