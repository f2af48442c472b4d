// Every built-in variant answers every scenario it serves exactly as the scenario says
// (status, content-type, body): the same work is measured everywhere. The proxy answers the
// same with each outgoing client it can use (proxyClient).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DEFAULTS } from '../bench/config/suites.js';
import { planPinning } from '../bench/measurement/pinning.js';
import { requestFor } from '../bench/measurement/requests.js';
import { startBenchmarkServer } from '../bench/measurement/measure.js';
import { SYSTEM_RUNTIME } from '../bench/measurement/runtime/resolve.js';
import { placeOnRuntime } from '../bench/measurement/runtime/variant.js';
import { builtInVariantNames, loadBuiltInVariants, skipReason } from '../bench/measurement/variants.js';
import { PROXY_CLIENTS } from '../servers/contract/options.js';
import { verifyServer } from '../bench/measurement/verify.js';
import { leftoverServers, tempDir } from './helpers/harness.js';

const logDir = tempDir();
const plan = planPinning([0], {}); // unpinned: this test checks answers, not speed
const options = { ...DEFAULTS.options, ioDelayMs: 5, cpuWork: 'fib:10' };
// As a run places them: express-bun on Bun (from the runtime cache; skipped when Bun cannot be installed).
const variants = await placeOnRuntime(
  await loadBuiltInVariants(builtInVariantNames()),
  SYSTEM_RUNTIME,
  (names, runtime) => loadBuiltInVariants(names, { launch: { runtime } }),
);
const backend = variants.find((variant) => variant.name === 'mock-backend');

// A server serves every route of its scenarios whatever the benchmark's scenario, so one server
// per outgoing client answers them all (the db scenario brings its own database): a third of
// the server starts of one per scenario.
function serverGroups(specs) {
  const groups = new Map();
  for (const spec of specs) {
    const key = spec.scenario === 'db' ? 'db' : spec.options.proxyClient;
    groups.set(key, [...(groups.get(key) ?? []), spec]);
  }
  return [...groups.values()];
}

// Two variants at a time: each starts its own servers on free ports (and its own database), and
// the servers are not pinned, so their start-ups share both cores.
describe('every variant answers every scenario identically', { concurrency: 2 }, () => {
  after(() => assert.deepEqual(leftoverServers(), []));
  for (const variant of variants) {
    const { name } = variant;
    test(name, async (t) => {
      const reason = variant.unavailable;
      if (reason) return t.skip(reason); // e.g. a native addon or runtime that cannot run on this machine
      const specs = variant.scenarios.flatMap((scenario) =>
        (scenario === 'proxy' ? PROXY_CLIENTS : [options.proxyClient]).map((proxyClient) => ({
          id: `${name} ${scenario} ${proxyClient}`,
          scenario,
          options: { ...options, proxyClient },
        })),
      );
      for (const group of serverGroups(specs.filter((each) => !skipReason(variant, each)))) {
        // The spec that needs a backend or a database starts the server, so all its routes work.
        const starter = group.find((each) => ['proxy', 'db'].includes(each.scenario)) ?? group[0];
        const { server, stop } = await startBenchmarkServer({
          spec: starter,
          variant,
          backend,
          plan,
          readyTimeout: 15,
          logFile: `${logDir}/${starter.id.replaceAll(' ', '-')}.log`,
        });
        try {
          for (const spec of group) {
            await verifyServer({
              port: server.port,
              request: requestFor(variant, spec),
              variant: spec.id,
              scenario: spec.scenario,
              timeout: 5,
            });
          }
        } finally {
          await stop();
        }
      }
    });
  }
});
