// Runs both sides of a comparison once more, after the measured rounds (profiling changes
// timings), under the same load, at the same time and on the same cores, with the V8 CPU
// profiler, the sampling heap profiler or both on in every Node process of each server
// (bench/comparison/profile/agent.mjs), and only for the loaded window. Keeps the .cpuprofile and
// .heapprofile files and returns each side's self time and bytes allocated per function and the
// requests it completed, for bench/comparison/profile/differential.js.
// The agents write outside the results, into a folder per side that the harness owns; once every
// process of both sides is gone, only the profiles it asked for are copied into the results, as
// plain files within a size (a link a side planted, or swapped in, is never followed).
import { chmodSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { errors } from '../../core/errors.js';
import { readPlainText } from '../../core/read-file.js';
import { registerCleanup } from '../../measurement/process/children.js';
import { runLoad } from '../../measurement/load.js';
import { engineOptions } from '../../../site/shared/load-point.js';
import { requestFor } from '../../measurement/requests.js';
import { startBenchmarkServer } from '../../measurement/measure.js';
import { verifyServer } from '../../measurement/verify.js';
import { giveScratch } from '../../measurement/sandbox/bubblewrap.js';
import { filesAppear, pidsWith, signalAgents } from '../../measurement/process/agent-files.js';
import { removeWritten } from '../../measurement/sandbox/view.js';
import { mergeSelfTimes, packageTimes, selfTimes } from './cpuprofile.js';
import { packageBytes, selfBytes } from './heapprofile.js';

const AGENT = new URL('./agent.mjs', import.meta.url).href;
const SIDES = ['base', 'head'];
const WAIT_MS = 15_000; // for the profiler to start, or to write its profile
// The most of one profile that is copied out (a few seconds of a busy server: a few MB).
const PROFILE_BYTES = 256 * 1024 ** 2;
// What each kind of profile is read as: its file's suffix, the amount's field, its readers.
export const PROFILE_KINDS = {
  cpu: { suffix: '.cpuprofile', field: 'selfMicros', functions: selfTimes, packages: packageTimes },
  allocation: { suffix: '.heapprofile', field: 'selfBytes', functions: selfBytes, packages: packageBytes },
};

// The variant, with the agent preloaded into every Node process it starts (the harness's
// own NODE_OPTIONS are added by bench/measurement/process/server.js). A sandboxed one may read the agent
// and write into its profile folder, nothing more.
function profiledVariant(variant, dir, kinds) {
  const nodeOptions = [variant.launch.env?.NODE_OPTIONS, `--import="${AGENT}"`].filter(Boolean).join(' ');
  const { sandbox } = variant.launch;
  if (sandbox) giveScratch(dir, sandbox.uid);
  return {
    ...variant,
    launch: {
      ...variant.launch,
      env: {
        ...variant.launch.env,
        NODE_OPTIONS: nodeOptions,
        PERFGATE_PROFILE_DIR: dir,
        PERFGATE_PROFILE_KINDS: kinds.join(','),
      },
      ...(sandbox
        ? {
            sandbox: {
              ...sandbox,
              readOnly: [...sandbox.readOnly, fileURLToPath(new URL('.', AGENT))],
              writable: [...(sandbox.writable ?? []), dir],
            },
          }
        : {}),
    },
  };
}

// Signals every agent of a server (bench/measurement/process/agent-files.js: in a sandbox, only
// processes of its PID namespace) and waits for each one's answers.
async function signalAll(dir, pids, suffixes, what, server) {
  const stray = signalAgents(pids, server);
  if (stray) throw errors.profileFailed(`process ${stray}, named in ${dir}, is not one of the server's`);
  for (const suffix of suffixes)
    if (!(await filesAppear(dir, pids, suffix, WAIT_MS)))
      throw errors.profileFailed(`the profiler did not ${what} within ${WAIT_MS / 1000} s in ${dir}`);
}

// A folder per side for its agents to write, in a parent the harness owns: outside the results
// (and reachable from a results directory others cannot pass, such as one in /root), passable but
// not listable by others; removed after the profile, or when the harness exits.
function openAgentFolders() {
  const parent = mkdtempSync(join(tmpdir(), 'perfgate-profile-'));
  chmodSync(parent, 0o711);
  const remove = () => removeWritten(parent);
  const unregister = registerCleanup(remove);
  const dirs = Object.fromEntries(SIDES.map((side) => [side, join(parent, side)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { mode: 0o700 });
  return {
    dirs,
    close: () => {
      unregister();
      remove();
    },
  };
}

// Copies a profile an agent wrote into the results, once its side's processes are gone: opened
// without following a link, a plain file within the size, and JSON. Returns it parsed.
function copyProfile(from, to) {
  const text = readPlainText(from, PROFILE_BYTES, (problem) => errors.profileFailed(`${from} ${problem}`));
  let profile;
  try {
    profile = JSON.parse(text);
  } catch {
    throw errors.profileFailed(`${from} is not JSON`);
  }
  writeFileAtomicSync(to, text);
  return profile;
}

/**
 * @param {{spec: object, variants: {base: object, head: object}, roots: {base: string, head: string},
 *   measurement: object, settings: object, outDir: string}} run  measurement: the run's context, settings:
 *   the benchmark's (bench/measurement/context.js)
 * @param {string[]} kinds  the profiles the run takes, keys of PROFILE_KINDS
 * @returns {Promise<{base: {requests: number, cpu?: {functions: Map, packages: Map, profiles: string[]},
 *   allocation?: object}, head: object}>}
 */
export async function profileSides({ spec, variants, roots, measurement, settings, outDir }, kinds = ['cpu']) {
  // What is kept: each side's profiles and its server's log (written from the harness's descriptor).
  const kept = Object.fromEntries(SIDES.map((side) => [side, join(resolve(outDir), side)]));
  for (const dir of Object.values(kept)) mkdirSync(dir, { recursive: true });
  const folders = openAgentFolders();
  const { dirs } = folders;
  const started = {};
  let stopping;
  const stopAll = () => {
    stopping ??= Promise.all(Object.values(started).map(({ stop }) => stop()));
    return stopping;
  };
  try {
    for (const side of SIDES) {
      const variant = profiledVariant(variants[side], dirs[side], kinds);
      started[side] = await startBenchmarkServer({
        spec,
        variant,
        backend: measurement.backend,
        plan: measurement.plan,
        readyTimeout: settings.readyTimeout,
        logFile: join(kept[side], 'server.log'),
        server: measurement.serverSettings,
      });
      if (!pidsWith(dirs[side], '.agent').length)
        throw errors.notProfilable(
          variants[side].name,
          'it runs no Node.js process that loads the profiling agent (another runtime: Go, Java, Bun, nginx)',
        );
    }
    const load = (side, duration) => {
      const request = requestFor(variants[side], spec);
      return runLoad({
        engine: measurement.engine,
        host: started[side].server.host,
        port: started[side].server.port,
        request,
        ...engineOptions(settings.load, settings.rate),
        pipelining: settings.pipelining,
        timeout: settings.timeout,
        duration,
      });
    };
    for (const side of SIDES)
      await verifyServer({
        host: started[side].server.host,
        port: started[side].server.port,
        request: requestFor(variants[side], spec),
        variant: variants[side].name,
        scenario: spec.scenario,
        timeout: settings.timeout,
      });
    if (settings.warmup > 0) await Promise.all(SIDES.map((side) => load(side, settings.warmup)));
    const agents = Object.fromEntries(SIDES.map((side) => [side, pidsWith(dirs[side], '.agent')]));
    await Promise.all(
      SIDES.map((side) => signalAll(dirs[side], agents[side], ['.started'], 'start', started[side].server)),
    );
    const loads = await Promise.all(SIDES.map((side) => load(side, settings.duration)));
    await Promise.all(
      SIDES.map((side) =>
        signalAll(
          dirs[side],
          agents[side],
          kinds.map((kind) => PROFILE_KINDS[kind].suffix),
          'write its profile',
          started[side].server,
        ),
      ),
    );
    // Nothing of a side may change its folder while it is read.
    await stopAll();
    const read = (side, kind) => {
      const { suffix, field, functions, packages } = PROFILE_KINDS[kind];
      const profiles = agents[side].map((pid) => join(kept[side], `${side}-${pid}${suffix}`));
      const parsed = agents[side].map((pid, at) => copyProfile(join(dirs[side], `${pid}${suffix}`), profiles[at]));
      // A side writes its own profiles: one that is JSON but not V8's shape skips the profile, by name.
      const readEach = (reader) =>
        parsed.map((profile, at) => {
          try {
            return reader(profile);
          } catch (error) {
            throw errors.profileFailed(`${profiles[at]} is not a V8 ${suffix} (${error.message})`);
          }
        });
      return {
        // V8 names scripts by their real path.
        functions: mergeSelfTimes(
          readEach((profile) => functions(profile, { root: realpathSync(roots[side]) })),
          field,
        ),
        packages: mergeSelfTimes(readEach(packages), field),
        profiles,
      };
    };
    return Object.fromEntries(
      SIDES.map((side, index) => [
        side,
        {
          requests: loads[index].requests.total,
          ...Object.fromEntries(kinds.map((kind) => [kind, read(side, kind)])),
        },
      ]),
    );
  } finally {
    await stopAll();
    folders.close();
  }
}
