#!/usr/bin/env node
// `npm run client-check`: is autocannon the bottleneck? Loads node-http hello with
// autocannon and with wrk in alternating rounds, at the same pinning and connections,
// and prints the ratio of their medians. A benchmark script, not a test.
import { spawnSync } from 'node:child_process';
import { minimist } from 'zx';
import { DEFAULTS } from '../bench/config/suites.js';
import { runLoad } from '../bench/load.js';
import { currentPinning, describePinning, pinSelf } from '../bench/pinning.js';
import { requestFor } from '../bench/requests.js';
import { startBenchmarkServer } from '../bench/run.js';
import { loadBuiltInVariant } from '../bench/variants.js';
import { runWrk } from '../bench/wrk.js';

const args = minimist(process.argv.slice(2));
const rounds = Number(args.rounds ?? 3);
const duration = Number(args.duration ?? 5);
const connections = Number(args.connections ?? 100);
const workers = Number(args.workers ?? 0);
if (spawnSync('wrk', ['-v']).error) {
  console.log('client-check skipped: wrk is not installed (run `npm run setup`)');
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const plan = currentPinning({ loadWorkers: workers });
pinSelf(plan);
const variant = await loadBuiltInVariant('node-http');
const spec = { id: 'node-http hello', scenario: 'hello', options: DEFAULTS.options };
const request = requestFor(variant, spec);
const { server, stop } = await startBenchmarkServer({ spec, variant, plan, readyTimeout: 15, logFile: '/dev/null' });
const measured = { autocannon: [], wrk: [] };
try {
  const load = { port: server.port, request, connections, timeout: 10, workers };
  await runLoad({ ...load, duration: 2 }); // warm-up
  for (let round = 1; round <= rounds; round++) {
    const { result } = await runLoad({ ...load, duration });
    measured.autocannon.push(result.requests.mean);
    measured.wrk.push(await runWrk({ plan, port: server.port, path: request.path, connections, duration }));
    console.log(`round ${round}: autocannon ${Math.round(measured.autocannon.at(-1))} req/s, wrk ${Math.round(measured.wrk.at(-1))} req/s`);
  }
} finally {
  await stop();
}
const ratio = median(measured.autocannon) / median(measured.wrk);
console.log(`node-http hello c=${connections}, pinning ${describePinning(plan)}, autocannon workers ${workers}`);
console.log(`median autocannon/wrk = ${ratio.toFixed(2)}`);
