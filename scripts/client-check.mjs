#!/usr/bin/env node
// `npm run client-check`: is the load generator the bottleneck? Runs the same benchmark
// (node-http hello c=100 by default) with every engine (bench/measurement/engines/) in alternating
// rounds at the same pinning, each round a full measurement (bench/measurement/measure.js), and prints
// per engine the req/s, its own CPU % and whether it saturated, and the ratio of the default
// engine's req/s to each other's (bench/measurement/engines/client-check.js). A benchmark script, not a test.
import { runCommand } from '../bench/cli/run.js';
import { SUITE_OPTIONS, suiteRequest } from '../bench/cli/suite-options.js';
import { checkClients } from '../bench/measurement/engines/client-check.js';
import { ENGINE_NAMES, unavailableEngine } from '../bench/measurement/engines/seam.js';
import { describePinning } from '../bench/measurement/pinning.js';

const { suite, config, variant, scenario, connections, duration, warmup, workers, timeout } = SUITE_OPTIONS;
const CLIENT_CHECK_COMMAND = {
  name: 'client-check',
  invocation: 'npm run client-check --',
  synopsis: '[options]',
  summary: `Is the load generator the bottleneck? The same benchmark with each engine (${ENGINE_NAMES.join(', ')}) in alternating rounds:\nreq/s, the engine's own CPU % and saturation, and the default engine's req/s over each other's.`,
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
  const skipped = unavailableEngine();
  if (skipped) {
    console.log(`client-check skipped: ${skipped}`);
    return;
  }
  const { spec, plan, runs, medianRequests, ratios } = await checkClients({
    request: suiteRequest(values),
    rounds: values.rounds,
    onRun: (round, engine, run) =>
      console.log(
        `round ${round} ${engine}: ${Math.round(run.requests.mean)} req/s, client CPU ${run.loadGenerator.cpuPct} %` +
          `${run.loadGenerator.saturated ? ' (saturated)' : ''}, server ${run.server.cpuMicrosPerRequest} CPU µs/request`,
      ),
  });
  console.log(`${spec.id}, pinning ${describePinning(plan)}`);
  for (const engine of ENGINE_NAMES) {
    console.log(
      `${engine}: median ${Math.round(medianRequests[engine])} req/s, client saturated in ${runs[engine].filter((run) => run.loadGenerator.saturated).length}/${values.rounds} rounds`,
    );
  }
  for (const [pair, ratio] of Object.entries(ratios)) console.log(`median ${pair} = ${ratio.toFixed(2)}`);
});
