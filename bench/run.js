// Runs a resolved suite: for every benchmark, start the server, verify its answer, warm
// up, measure, stop; repetitions go round-robin over all benchmarks so that a slow phase
// of a noisy machine does not fall on one benchmark only. The result file is rewritten
// after every benchmark, so an interrupted run still leaves a valid file.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';
import { startDatabase } from './database.js';
import { errors, PerfgateError } from './errors.js';
import { ensureFileLimit, runLoad } from './load.js';
import { gitInfo, machineInfo, packageVersions } from './machine.js';
import { optionsEnv } from '../servers/options.js';
import { serverSettingsEnv } from './config/server-settings.js';
import { currentPinning, pinSelf } from './pinning.js';
import { onInterrupt } from './process/children.js';
import { startServer } from './process/server.js';
import { createProgress } from './progress.js';
import { requestFor } from './requests.js';
import { runRecord, summarizeRuns } from './results/record.js';
import { startSampler } from './sampling/sampler.js';
import { expandSpecs } from './specs.js';
import { loadBuiltInVariant, skipReason } from './variants.js';
import { verifyServer } from './verify.js';

export const RESULT_FORMAT = { format: 'perfgate-result', version: 1 };
const STARTUP_ALLOWANCE_SECONDS = 1;

// The environment that carries a benchmark's options to the server: every scenario option
// (servers/options.js), every server setting (config/server-settings.js), and where the
// backend and the database are.
export function serverEnv(options, backendUrl, databaseUrl, server) {
  return {
    ...optionsEnv(options),
    ...serverSettingsEnv(server),
    ...(backendUrl ? { PERFGATE_BACKEND_URL: backendUrl } : {}),
    ...(databaseUrl ? { PERFGATE_DATABASE_URL: databaseUrl } : {}),
  };
}

export const fileSafe = (text) => text.replace(/[^a-zA-Z0-9._=-]+/g, '_');

// Starts the server of one benchmark, and first the mock backend when it forwards to one,
// or the database when it queries one. Resolves to the server and a stop() that ends all.
export async function startBenchmarkServer({ spec, variant, backend, plan, readyTimeout, logFile, server: settings }) {
  const needsBackend = spec.scenario === 'proxy' && variant.kind === 'builtin' && variant.role !== 'backend';
  const started = [];
  const stop = () => Promise.all(started.reverse().map((server) => server.stop()));
  try {
    let backendUrl;
    if (needsBackend) {
      const backendServer = await startServer(backend, { plan, readyTimeout, env: serverEnv(spec.options, undefined, undefined, settings), logFile: `${logFile}.backend` });
      started.push(backendServer);
      backendUrl = `http://127.0.0.1:${backendServer.port}/proxy`;
    }
    let databaseUrl;
    if (spec.scenario === 'db' && variant.kind === 'builtin') {
      const database = await startDatabase({ plan, logFile: `${logFile}.database` });
      started.push(database);
      databaseUrl = database.url;
    }
    const server = await startServer(variant, { plan, readyTimeout, logFile, env: serverEnv(spec.options, backendUrl, databaseUrl, settings) });
    started.push(server);
    return { server, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// One measured run of one benchmark: fresh server, verification, warm-up, load, stop.
export async function measureOnce({ spec, variant, backend, config, plan, logDir, repetition }) {
  const logFile = join(logDir, `${fileSafe(spec.id)}-run${repetition}.log`);
  const { server, stop } = await startBenchmarkServer({ spec, variant, backend, plan, readyTimeout: config.readyTimeout, logFile, server: config.server });
  try {
    let exit;
    server.exited.then((result) => { exit = result; });
    const request = requestFor(variant, spec);
    await verifyServer({ port: server.port, request, variant: variant.name, scenario: spec.scenario, timeout: config.timeout });
    const load = { port: server.port, request, connections: spec.connections, pipelining: config.pipelining, timeout: config.timeout, workers: config.workers };
    if (config.warmup > 0) await runLoad({ ...load, duration: config.warmup });
    const stopSampler = startSampler([server.pid]);
    const measured = await runLoad({ ...load, duration: config.duration });
    const sampled = stopSampler();
    if (exit) throw errors.serverExited(variant.name, exit.code, exit.signal, logFile);
    return runRecord(measured, sampled, { loadCores: plan.method === 'taskset' ? plan.load.length : 1 });
  } finally {
    await stop();
  }
}

function newResult({ config, variants, plan }) {
  const packages = ['autocannon', ...variants.flatMap((variant) => variant.packages)];
  return {
    ...RESULT_FORMAT,
    suite: config.name,
    status: 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: machineInfo(),
    git: gitInfo(),
    packages: packageVersions(packages),
    pinning: plan,
    config,
    benchmarks: expandSpecs(config).map((spec) => ({ ...spec, status: 'pending', runs: [] })),
  };
}

/**
 * @param {{config: object, variants: object[], outDir: string}} suite
 * @returns {Promise<object>} the result (also written to <outDir>/result.json)
 */
export async function runSuite({ config, variants, outDir }) {
  const plan = currentPinning({ loadWorkers: config.workers });
  pinSelf(plan);
  const logDir = join(outDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const result = newResult({ config, variants, plan });
  const resultFile = join(outDir, 'result.json');
  const save = () => writeFileAtomicSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  onInterrupt((signal) => {
    result.status = 'interrupted';
    result.finishedAt = new Date().toISOString();
    for (const benchmark of result.benchmarks) {
      if (benchmark.status === 'pending' && benchmark.runs.length) benchmark.summary = summarizeRuns(benchmark.runs);
    }
    save();
    console.error(errors.interrupted(signal).message);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
  save();

  const variantByName = Object.fromEntries(variants.map((variant) => [variant.name, variant]));
  for (const variant of variants) {
    const reason = await variant.unavailable();
    if (!reason) continue;
    const skipped = errors.variantUnavailable(variant.name, reason);
    console.error(skipped.message);
    for (const benchmark of result.benchmarks.filter((each) => each.variant === variant.name)) {
      Object.assign(benchmark, { status: 'skipped', code: skipped.code, reason });
    }
  }
  for (const benchmark of result.benchmarks.filter((each) => each.status === 'pending')) {
    const reason = skipReason(variantByName[benchmark.variant], benchmark);
    if (!reason) continue;
    const skipped = errors.variantUnavailable(benchmark.id, reason);
    console.error(skipped.message);
    Object.assign(benchmark, { status: 'skipped', code: skipped.code, reason });
  }
  const backend = await loadBuiltInVariant('mock-backend');
  const progress = createProgress({
    total: result.benchmarks.length * config.repetitions,
    secondsPerStep: config.warmup + config.duration + STARTUP_ALLOWANCE_SECONDS,
  });
  for (let repetition = 1; repetition <= config.repetitions; repetition++) {
    for (const benchmark of result.benchmarks) {
      const runLabel = config.repetitions > 1 ? ` run ${repetition}/${config.repetitions}` : '';
      progress.start(`${benchmark.id}${runLabel}`);
      if (benchmark.status !== 'pending') {
        progress.finish();
        continue;
      }
      try {
        ensureFileLimit(benchmark.connections);
      } catch (error) {
        Object.assign(benchmark, { status: 'not-run', code: error.code, reason: error.message });
        progress.finish(`${benchmark.id}: ${error.message}`);
        save();
        continue;
      }
      try {
        benchmark.runs.push(await measureOnce({ spec: benchmark, variant: variantByName[benchmark.variant], backend, config, plan, logDir, repetition }));
        progress.finish();
      } catch (error) {
        if (!(error instanceof PerfgateError)) throw error;
        Object.assign(benchmark, { status: 'failed', code: error.code, reason: error.message });
        progress.finish(`${benchmark.id}: ${error.message}`);
      }
      save();
    }
  }
  progress.end();
  for (const benchmark of result.benchmarks) {
    if (benchmark.status === 'pending') Object.assign(benchmark, { status: 'ok', summary: summarizeRuns(benchmark.runs) });
  }
  result.status = 'complete';
  result.finishedAt = new Date().toISOString();
  save();
  return result;
}
