// The measurement context: what every measurement of one run shares, opened once per run (a
// suite run, run-suite.js; a comparison, bench/comparison/run-comparison.js, and through it
// calibrate, bisect and the relative trend; a client check): the pinning (this process moved
// to the load cores), the log directory, the mock backend a proxy's server forwards to, the
// load engine, the server settings, and the machine and checkout the run's record names.
// Beside it, the narrow settings of one benchmark's measurement, derived once from the suite
// config: the config stays with the loop that owns it, and what measures gets what it reads.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadPointOf } from '../../site/shared/load-point.js';
import { gitInfo, machineInfo } from './machine.js';
import { currentPinning, pinSelf } from './pinning.js';
import { loadBuiltInVariant } from './variants.js';

/**
 * The run's cores for a suite config: the load generator's (one per load worker, at most half) and the
 * server's. Whatever else must land on the server cores a run uses (trend evidence's CPU hog) plans with it.
 */
export const measurementPinning = (config) => currentPinning({ loadWorkers: config.workers });

/**
 * @param {{config: object, outDir?: string}} run  outDir: the run's results directory, whose logs/ gets the
 *   servers' logs; without it (a profile alone, which keeps its logs beside its profiles) no log directory
 * @returns {Promise<{plan: object, logDir?: string, backend: object, engine: string|object, serverSettings?: object,
 *   machine: object, git: object}>}
 */
export async function openMeasurement({ config, outDir }) {
  const plan = measurementPinning(config);
  pinSelf(plan);
  const logDir = outDir === undefined ? undefined : join(outDir, 'logs');
  if (logDir) mkdirSync(logDir, { recursive: true });
  return {
    plan,
    logDir,
    // A variant, not a server: each measurement starts its own (measure.js), with the benchmark's options.
    backend: await loadBuiltInVariant('mock-backend'),
    engine: config.engine,
    serverSettings: config.server,
    machine: machineInfo(),
    // The checkout perfgate runs in.
    git: gitInfo(),
  };
}

/**
 * What one benchmark's measurement reads of the suite config: how hard (its load point, and a closed
 * load's rate cap), how long and how patiently.
 * @returns {{load: object, duration: number, warmup: number, pipelining: number, rate: number,
 *   timeout: number, workers: number, readyTimeout: number, runtimeAgent: false|{heapEveryMs: number},
 *   soakRequests: number}}
 *   runtimeAgent: the runtime agent in its Node.js server processes (bench/measurement/runtime-agent/)
 */
export const measurementSettings = (config, spec) => ({
  load: loadPointOf(spec),
  duration: config.duration,
  warmup: config.warmup,
  pipelining: config.pipelining,
  rate: config.rate,
  timeout: config.timeout,
  workers: config.workers,
  readyTimeout: config.readyTimeout,
  // A soak (heap readings every soakEvery seconds) needs the agent too.
  runtimeAgent:
    config.runtimeMetrics === true || config.soakEvery > 0 ? { heapEveryMs: (config.soakEvery ?? 0) * 1000 } : false,
  // A soak's measured load stops at this many requests too (0: at its duration only).
  soakRequests: config.soakRequests ?? 0,
});
