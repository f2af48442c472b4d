#!/usr/bin/env node
// `npm run client-check`: is the load generator the bottleneck? Runs the same benchmark
// (node-http hello by default) with both engines, autocannon and wrk, in alternating
// rounds at the same pinning and connections, each a full measurement (bench/measure.js),
// and prints per engine the median req/s, its own CPU % and whether it saturated, with the
// ratio autocannon/wrk. A benchmark script, not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minimist } from 'zx';
import { resolveSuite } from '../bench/config/resolve.js';
import { wrkUnavailable } from '../bench/engines/wrk.js';
import { PerfgateError } from '../bench/errors.js';
import { measureOnce } from '../bench/measure.js';
import { currentPinning, describePinning, pinSelf } from '../bench/pinning.js';
import { expandSpecs } from '../bench/specs.js';
import { loadBuiltInVariant } from '../bench/variants.js';
import { median } from '../bench/stats/index.js';
import { parseBenchArgs } from './lib/bench-args.js';

const ENGINES = ['autocannon', 'wrk'];
const args = minimist(process.argv.slice(2), { string: ['suite', 'config'], boolean: ['help'] });
const rounds = Number(args.rounds ?? 3);
delete args.rounds;
if (args.help) {
  console.log('usage: npm run client-check -- [--rounds N] [--variant V] [--scenario S] [--connections N] [--duration S] [--workers N]');
  process.exit(0);
}
const skipped = wrkUnavailable();
if (skipped) {
  console.log(`client-check skipped: ${skipped}`);
  process.exit(0);
}

const logDir = mkdtempSync(join(tmpdir(), 'perfgate-client-check-'));
try {
  const request = parseBenchArgs({ variant: 'node-http', scenario: 'hello', connections: '100', duration: '5', ...args });
  const { config, variants } = await resolveSuite({ ...request, suite: request.suite ?? 'smoke' });
  const [spec] = expandSpecs(config);
  const plan = currentPinning({ loadWorkers: config.workers });
  pinSelf(plan);
  const backend = await loadBuiltInVariant('mock-backend');
  const measured = Object.fromEntries(ENGINES.map((engine) => [engine, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const engine of round % 2 ? ENGINES : [...ENGINES].reverse()) {
      const run = await measureOnce({ spec, variant: variants[0], backend, config: { ...config, engine }, plan, logDir, repetition: `${engine}${round}` });
      measured[engine].push(run);
      console.log(`round ${round} ${engine}: ${Math.round(run.requests.mean)} req/s, client CPU ${run.loadGenerator.cpuPct} %${run.loadGenerator.saturated ? ' (saturated)' : ''}, server CPU ${run.server.cpuMicrosPerRequest} µs/request`);
    }
  }
  console.log(`${spec.id}, pinning ${describePinning(plan)}`);
  for (const engine of ENGINES) {
    const runs = measured[engine];
    console.log(`${engine}: median ${Math.round(median(runs.map((run) => run.requests.mean)))} req/s, client saturated in ${runs.filter((run) => run.loadGenerator.saturated).length}/${runs.length} rounds`);
  }
  const ratio = median(measured.autocannon.map((run) => run.requests.mean)) / median(measured.wrk.map((run) => run.requests.mean));
  console.log(`median autocannon/wrk = ${ratio.toFixed(2)}`);
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
} finally {
  rmSync(logDir, { recursive: true, force: true });
}
