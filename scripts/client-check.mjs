#!/usr/bin/env node
// `npm run client-check`: is the load generator the bottleneck? Runs the same benchmark
// (node-http hello c=100 by default) with both engines, autocannon and wrk, in alternating
// rounds at the same pinning, each round a full measurement (bench/measure.js), and prints
// per engine the req/s, its own CPU % and whether it saturated, and the ratio
// autocannon/wrk. A benchmark script, not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../bench/cli/run.js';
import { SUITE_OPTIONS, suiteRequest } from '../bench/cli/suite-options.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { ENGINE_NAMES } from '../bench/engines/index.js';
import { wrkUnavailable } from '../bench/engines/wrk.js';
import { measureOnce } from '../bench/measure.js';
import { currentPinning, describePinning, pinSelf } from '../bench/pinning.js';
import { expandSpecs } from '../bench/specs.js';
import { median } from '../bench/stats/index.js';
import { loadBuiltInVariant } from '../bench/variants.js';

const { suite, config, variant, scenario, connections, duration, warmup, workers, timeout } = SUITE_OPTIONS;
const CLIENT_CHECK_COMMAND = {
  name: 'client-check',
  invocation: 'npm run client-check --',
  synopsis: '[options]',
  summary: `Is the load generator the bottleneck? The same benchmark with each engine (${ENGINE_NAMES.join(', ')}) in alternating rounds:\nreq/s, the engine's own CPU % and saturation, and the ratio autocannon/wrk.`,
  options: {
    rounds: { type: 'count', value: 'N', help: 'rounds of each engine', default: 3 },
    suite: { ...suite, defaultText: 'smoke' },
    config,
    variant: { ...variant, default: ['node-http'] },
    scenario: { ...scenario, default: ['hello'] },
    connections: { ...connections, default: ['100'] },
    duration: { ...duration, default: 5 },
    warmup: { ...warmup, default: 1 },
    workers,
    timeout,
  },
};

await runCommand(CLIENT_CHECK_COMMAND, async ({ values }) => {
  const skipped = wrkUnavailable();
  if (skipped) {
    console.log(`client-check skipped: ${skipped}`);
    return;
  }
  const request = suiteRequest(values);
  const { config: resolved, variants } = await resolveSuite({ ...request, suite: request.suite ?? (request.configFile ? undefined : 'smoke') });
  const [spec] = expandSpecs(resolved);
  const plan = currentPinning({ loadWorkers: resolved.workers });
  pinSelf(plan);
  const backend = await loadBuiltInVariant('mock-backend');
  const variantOf = Object.fromEntries(variants.map((each) => [each.name, each]));
  const logDir = mkdtempSync(join(tmpdir(), 'perfgate-client-check-'));
  const runs = Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, []]));
  try {
    for (let round = 1; round <= values.rounds; round++) {
      for (const engine of round % 2 ? ENGINE_NAMES : [...ENGINE_NAMES].reverse()) {
        const run = await measureOnce({ spec, variant: variantOf[spec.variant], backend, config: { ...resolved, engine }, plan, logDir, repetition: `${engine}${round}` });
        runs[engine].push(run);
        console.log(`round ${round} ${engine}: ${Math.round(run.requests.mean)} req/s, client CPU ${run.loadGenerator.cpuPct} %`
          + `${run.loadGenerator.saturated ? ' (saturated)' : ''}, server ${run.server.cpuMicrosPerRequest} CPU µs/request`);
      }
    }
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
  const medianOf = (engine) => median(runs[engine].map((run) => run.requests.mean));
  console.log(`${spec.id}, pinning ${describePinning(plan)}`);
  for (const engine of ENGINE_NAMES) {
    console.log(`${engine}: median ${Math.round(medianOf(engine))} req/s, client saturated in ${runs[engine].filter((run) => run.loadGenerator.saturated).length}/${values.rounds} rounds`);
  }
  console.log(`median autocannon/wrk = ${(medianOf('autocannon') / medianOf('wrk')).toFixed(2)}`);
});
