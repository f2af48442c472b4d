// One measurement: the servers of one benchmark started (one, or two for a duet: both on
// the same server cores), verified, warmed up and loaded at the same moment with identical
// settings, one engine instance per server on the load cores; then stopped. Each server
// gets a run record (bench/results/record.js). The suite loop is bench/measurement/run-suite.js; compare's
// rounds are bench/comparison/.
import { join } from 'node:path';
import { optionsEnv } from '../../servers/contract/options.js';
import { serverSettingsEnv } from '../config/server-settings.js';
import { startDatabase } from './database.js';
import { errors, PerfgateError } from '../core/errors.js';
import { prepareLoad } from './load.js';
import { engineOptions } from '../../site/shared/load-point.js';
import { listenHost, startServer } from './process/server.js';
import { requestFor } from './requests.js';
import { runRecord } from '../results/record.js';
import { closeWindow, openWindow } from './runtime-agent/window.js';
import { startSampler } from './sampling/sampler.js';
import { verifyServer } from './verify.js';

// The environment that carries a benchmark's options to the server: every scenario option
// (servers/contract/options.js), every server setting (config/server-settings.js), and where the
// backend and the database are.
function serverEnv(options, backendUrl, databaseUrl, server) {
  return {
    ...optionsEnv(options),
    ...serverSettingsEnv(server),
    ...(backendUrl ? { PERFGATE_BACKEND_URL: backendUrl } : {}),
    ...(databaseUrl ? { PERFGATE_DATABASE_URL: databaseUrl } : {}),
  };
}

export const fileSafe = (text) => text.replace(/[^a-zA-Z0-9._=-]+/g, '_');

// A failure of the servers under test names the sides whose servers failed (error.sides: 'base',
// 'head', or 'run' outside a comparison), so that a comparison tells a failed head from a failed
// base; a failure of the harness (the load engine, the mock backend) names none.
const blamed = (error, side) => {
  if (error instanceof PerfgateError && side) error.sides = [side];
  return error;
};

// Starts the server of one benchmark, and first the mock backend when it forwards to one,
// or the database when it queries one. Resolves to the server and a stop() that ends all.
// side: whose server this is, named in its failure (blamed).
export async function startBenchmarkServer({
  spec,
  variant,
  backend,
  plan,
  readyTimeout,
  logFile,
  server: settings,
  side,
  runtimeAgent = false,
}) {
  const needsBackend = spec.scenario === 'proxy' && variant.kind === 'builtin' && variant.role !== 'backend';
  const started = [];
  const stop = () => Promise.all(started.reverse().map((server) => server.stop()));
  try {
    let backendUrl;
    if (needsBackend) {
      const backendServer = await startServer(backend, {
        host: listenHost(variant),
        plan,
        readyTimeout,
        env: serverEnv(spec.options, undefined, undefined, settings),
        logFile: `${logFile}.backend`,
      });
      started.push(backendServer);
      backendUrl = `http://${backendServer.host}:${backendServer.port}/proxy`;
    }
    let databaseUrl;
    if (spec.scenario === 'db' && variant.kind === 'builtin') {
      const database = await startDatabase({ plan, host: listenHost(variant), logFile: `${logFile}.database` });
      started.push(database);
      databaseUrl = database.url;
    }
    const server = await startServer(variant, {
      plan,
      readyTimeout,
      logFile,
      runtimeAgent,
      env: serverEnv(spec.options, backendUrl, databaseUrl, settings),
    }).catch((error) => {
      throw blamed(error, side);
    });
    started.push(server);
    return { server, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// The cores the client processes of one side can use at most: its share of the load cores.
function clientCores(plan, processes, sides) {
  const loadCores = plan.method === 'taskset' ? plan.load.length : plan.cpus.length;
  return Math.min(loadCores, processes) / sides;
}

// Launches each side's load while its server starts: the engine's processes start at once, and aim
// at the server once its port is known (bench/measurement/load.js).
const prepareLoads = (sides, starting, engine, settings) =>
  sides.map((side, index) =>
    prepareLoad({
      engine,
      host: listenHost(side.variant),
      port: starting[index].then((entry) => entry.server.port),
      request: side.request,
      ...engineOptions(settings.load, settings.rate),
      duration: settings.duration,
      pipelining: settings.pipelining,
      timeout: settings.timeout,
      workers: settings.workers,
    }),
  );

// Loads every opened side at the same moment (their loads launched, then started together): the
// warm-up, then the measured load with the server groups sampled.
async function loadTogether(opened, prepared, settings) {
  if (settings.warmup > 0) await Promise.all(prepared.map((load) => load.go(settings.warmup)));
  const windows = await Promise.all(opened.map((side) => openWindow(side.server)));
  const samplers = opened.map((side) =>
    startSampler([side.server.pid], side.server.pidNamespace ? [side.server.pidNamespace] : []),
  );
  let loads;
  try {
    loads = await Promise.all(prepared.map((load) => load.go(undefined, settings.soakRequests)));
  } catch (error) {
    // A sampler left running would keep the harness alive after the failure is reported.
    for (const stop of samplers) stop();
    throw error;
  }
  const sampled = samplers.map((stop) => stop());
  // Closed after the sampling: the agents' own work at the window's end is not the server's.
  const runtime = await Promise.all(opened.map((side, index) => closeWindow(side.server, windows[index])));
  return loads.map((load, index) => ({ load, sampled: sampled[index], runtime: runtime[index] }));
}

// The first of several failures, naming every side that failed; a failure of the harness wins, as it names none.
function firstFailure(failures) {
  const harness = failures.find((error) => !error.sides);
  if (harness) return harness;
  failures[0].sides = [...new Set(failures.flatMap((error) => error.sides))];
  return failures[0];
}

// The values of promises that all settled, or their first failure (firstFailure).
const settledValues = (settled) => {
  const failures = settled.filter((each) => each.status === 'rejected').map((each) => each.reason);
  if (failures.length) throw firstFailure(failures);
  return settled.map((each) => each.value);
};

/**
 * Measures one or two servers of one benchmark at the same time (a duet when two).
 * @param {{sides: {key: string, spec: object, variant: object}[], measurement: object, settings: object,
 *   label: string}} run  measurement: the run's context, settings: the benchmark's (bench/measurement/context.js);
 *   sides start in the given order
 * @returns {Promise<object[]>} one run record per side, in the given order
 */
export async function measureTogether({ sides: given, measurement, settings, label }) {
  const { plan, backend, logDir } = measurement;
  const sides = given.map((side) => ({ ...side, request: requestFor(side.variant, side.spec) }));
  const opened = [];
  let loading = [];
  try {
    // Started in the given order, without waiting for one to be ready before the next.
    const starting = sides.map(async (side) => {
      const logFile = join(logDir, `${fileSafe(side.spec.id)}-${label}${sides.length > 1 ? `-${side.key}` : ''}.log`);
      const { server, stop } = await startBenchmarkServer({
        spec: side.spec,
        variant: side.variant,
        backend,
        plan,
        readyTimeout: settings.readyTimeout,
        logFile,
        server: measurement.serverSettings,
        side: side.key,
        runtimeAgent: settings.runtimeAgent,
      });
      const entry = { ...side, server, stop, logFile };
      opened.push(entry);
      server.exited.then((result) => {
        entry.exit = result;
      });
      return entry;
    });
    loading = prepareLoads(sides, starting, measurement.engine, settings);
    // Handled from now on: a side whose server fails fails its load too, while the other side may
    // still be starting, and an unhandled rejection would end the process.
    const loadsSettled = Promise.allSettled(loading);
    // A server that failed to start is the reason to report, before its load's.
    settledValues(await Promise.allSettled(starting));
    const prepared = settledValues(await loadsSettled);
    opened.sort(
      (a, b) => sides.findIndex((side) => side.key === a.key) - sides.findIndex((side) => side.key === b.key),
    );
    // Every side is checked, so that two wrong answers are both named.
    const wrong = [];
    for (const side of opened) {
      try {
        await verifyServer({
          host: side.server.host,
          port: side.server.port,
          request: side.request,
          variant: side.variant.name,
          scenario: side.spec.scenario,
          timeout: settings.timeout,
        });
      } catch (error) {
        wrong.push(blamed(error, side.key));
      }
    }
    if (wrong.length) throw firstFailure(wrong);
    const measured = await loadTogether(opened, prepared, settings);
    const exited = opened.filter((side) => side.exit);
    if (exited.length)
      throw firstFailure(
        exited.map((side) =>
          blamed(
            // A sandboxed server stopped at one of its side's limits names it (process/server.js).
            errors.serverExited(side.variant.name, side.exit.code, side.exit.signal, side.logFile, side.exit.limit),
            side.key,
          ),
        ),
      );
    return measured.map(({ load, sampled, runtime }) =>
      runRecord(load, sampled, { clientCores: clientCores(plan, load.processes, sides.length), runtime }),
    );
  } finally {
    const launched = (await Promise.allSettled(loading)).filter((each) => each.status === 'fulfilled');
    await Promise.all([...launched.map((each) => each.value.stop()), ...opened.map((side) => side.stop())]);
  }
}

// One measured run of one benchmark: fresh server, verification, warm-up, load, stop.
// side: the comparison's side measured alone (sequential rounds), named in a failure.
export async function measureOnce({ spec, variant, measurement, settings, repetition, side = 'run' }) {
  const [record] = await measureTogether({
    sides: [{ key: side, spec, variant }],
    measurement,
    settings,
    label: `run${repetition}`,
  });
  return record;
}
