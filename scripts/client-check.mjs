#!/usr/bin/env node
// `npm run client-check`: is autocannon the bottleneck? Loads node-http hello with
// autocannon and with wrk in alternating rounds, at the same pinning and connections,
// and prints the ratio of their medians. A benchmark script, not a test.
import { spawnSync } from 'node:child_process';
import { runCommand } from '../bench/cli/run.js';
import { DEFAULTS } from '../bench/config/suites.js';
import { runLoad } from '../bench/load.js';
import { currentPinning, describePinning, pinSelf } from '../bench/pinning.js';
import { requestFor } from '../bench/requests.js';
import { startBenchmarkServer } from '../bench/run.js';
import { loadBuiltInVariant } from '../bench/variants.js';
import { runWrk } from '../bench/wrk.js';

const CLIENT_CHECK_COMMAND = {
  name: 'client-check',
  invocation: 'npm run client-check --',
  synopsis: '[options]',
  summary: 'Is autocannon the bottleneck? Loads node-http hello with autocannon and with wrk in alternating rounds\nand prints the ratio of their medians.',
  options: {
    rounds: { type: 'count', value: 'N', help: 'rounds of each load generator', default: 3 },
    duration: { type: 'positive', value: 'S', help: 'seconds per round', default: 5 },
    connections: { type: 'count', value: 'N', help: 'connections of both load generators', default: 100 },
    workers: { type: 'whole', value: 'N', help: 'autocannon worker threads (0: the main thread)', default: 0 },
  },
};

await runCommand(CLIENT_CHECK_COMMAND, async ({ values: { rounds, duration, connections, workers } }) => {
  if (spawnSync('wrk', ['-v']).error) {
    console.log('client-check skipped: wrk is not installed (run `npm run setup`)');
    return;
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
});
