// Runs both sides of a comparison once more, after the measured rounds (profiling changes
// timings), under the same load, at the same time and on the same cores, with the V8 CPU
// profiler on in every Node process of each server (bench/comparison/profile/agent.mjs), and only for
// the loaded window. Keeps the .cpuprofile files and returns each side's self time per
// function and the requests it completed, for bench/comparison/profile/differential.js.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../core/errors.js';
import { runLoad } from '../../measurement/load.js';
import { requestFor } from '../../measurement/requests.js';
import { startBenchmarkServer } from '../../measurement/measure.js';
import { verifyServer } from '../../measurement/verify.js';
import { giveScratch } from '../../measurement/sandbox/bubblewrap.js';
import { outerPid } from '../../measurement/sandbox/processes.js';
import { mergeSelfTimes, packageTimes, selfTimes } from './cpuprofile.js';

const AGENT = new URL('./agent.mjs', import.meta.url).href;
const SIDES = ['base', 'head'];
const WAIT_MS = 15_000; // for the profiler to start, or to write its profile

// The variant, with the agent preloaded into every Node process it starts (the harness's
// own NODE_OPTIONS are added by bench/measurement/process/server.js). A sandboxed one may read the agent
// and write into its profile folder, nothing more.
function profiledVariant(variant, dir) {
  const nodeOptions = [variant.launch.env?.NODE_OPTIONS, `--import="${AGENT}"`].filter(Boolean).join(' ');
  const { sandbox } = variant.launch;
  if (sandbox) giveScratch(dir);
  return {
    ...variant,
    launch: {
      ...variant.launch,
      env: { ...variant.launch.env, NODE_OPTIONS: nodeOptions, PERFGATE_PROFILE_DIR: dir },
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

const pidsWith = (dir, suffix) =>
  readdirSync(dir)
    .filter((file) => file.endsWith(suffix))
    .map((file) => Number(file.slice(0, -suffix.length)));

async function waitForFiles(dir, pids, suffix, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!pids.every((pid) => existsSync(join(dir, `${pid}${suffix}`)))) {
    if (Date.now() > deadline)
      throw errors.profileFailed(`the profiler did not ${what} within ${WAIT_MS / 1000} s in ${dir}`);
    await sleep(50);
  }
}

// A sandboxed server's agents name their pids in its PID namespace: signal what those are here,
// and only processes of that namespace (a file the side forged names nothing else).
async function signalAll(dir, pids, suffix, what, server) {
  for (const pid of pids) {
    const target = server.pidNamespace ? outerPid(server.pidNamespace, pid) : pid;
    if (!target) throw errors.profileFailed(`no process ${pid} in the sandbox of ${dir}`);
    process.kill(target, 'SIGUSR2');
  }
  await waitForFiles(dir, pids, suffix, what);
}

// A profile written from a sandbox is read only as a regular file (never a link it planted).
function readProfile(file) {
  if (!lstatSync(file).isFile()) throw errors.profileFailed(`${file} is not a regular file`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * @param {{spec: object, variants: {base: object, head: object}, roots: {base: string, head: string},
 *   measurement: object, settings: object, outDir: string}} run  measurement: the run's context, settings:
 *   the benchmark's (bench/measurement/context.js)
 * @returns {Promise<{base: {functions: Map, requests: number, profiles: string[]}, head: object}>}
 */
export async function profileSides({ spec, variants, roots, measurement, settings, outDir }) {
  // Absolute: the agent writes there from the server's working directory, the side's copy.
  const dirs = Object.fromEntries(SIDES.map((side) => [side, join(resolve(outDir), side)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const started = {};
  try {
    for (const side of SIDES) {
      const variant = profiledVariant(variants[side], dirs[side]);
      started[side] = await startBenchmarkServer({
        spec,
        variant,
        backend: measurement.backend,
        plan: measurement.plan,
        readyTimeout: settings.readyTimeout,
        logFile: join(dirs[side], 'server.log'),
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
        port: started[side].server.port,
        request,
        connections: settings.connections,
        pipelining: settings.pipelining,
        rate: settings.rate,
        timeout: settings.timeout,
        duration,
      });
    };
    for (const side of SIDES)
      await verifyServer({
        port: started[side].server.port,
        request: requestFor(variants[side], spec),
        variant: variants[side].name,
        scenario: spec.scenario,
        timeout: settings.timeout,
      });
    if (settings.warmup > 0) await Promise.all(SIDES.map((side) => load(side, settings.warmup)));
    const agents = Object.fromEntries(SIDES.map((side) => [side, pidsWith(dirs[side], '.agent')]));
    await Promise.all(
      SIDES.map((side) => signalAll(dirs[side], agents[side], '.started', 'start', started[side].server)),
    );
    const loads = await Promise.all(SIDES.map((side) => load(side, settings.duration)));
    await Promise.all(
      SIDES.map((side) =>
        signalAll(dirs[side], agents[side], '.cpuprofile', 'write its profile', started[side].server),
      ),
    );
    return Object.fromEntries(
      SIDES.map((side, index) => {
        const profiles = agents[side].map((pid) => {
          const file = join(dirs[side], `${side}-${pid}.cpuprofile`);
          renameSync(join(dirs[side], `${pid}.cpuprofile`), file);
          for (const marker of ['.agent', '.started']) rmSync(join(dirs[side], `${pid}${marker}`));
          return file;
        });
        // V8 names scripts by their real path.
        const parsed = profiles.map(readProfile);
        const functions = mergeSelfTimes(
          parsed.map((profile) => selfTimes(profile, { root: realpathSync(roots[side]) })),
        );
        const packages = mergeSelfTimes(parsed.map(packageTimes));
        return [side, { functions, packages, requests: loads[index].requests.total, profiles }];
      }),
    );
  } finally {
    await Promise.all(Object.values(started).map(({ stop }) => stop()));
  }
}
