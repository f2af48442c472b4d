// Every built-in variant answers every scenario it serves exactly as the scenario says
// (status, content-type, body): the same work is measured everywhere.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DEFAULTS } from '../bench/config/suites.js';
import { planPinning } from '../bench/pinning.js';
import { requestFor } from '../bench/requests.js';
import { startBenchmarkServer } from '../bench/measure.js';
import { builtInVariantNames, loadBuiltInVariant } from '../bench/variants.js';
import { verifyServer } from '../bench/verify.js';
import { leftoverServers, tempDir } from './helpers/harness.js';

const logDir = tempDir();
const plan = planPinning([0], {}); // unpinned: this test checks answers, not speed
const options = { ...DEFAULTS.options, ioDelayMs: 5, cpuWork: 'fib:10' };
const backend = await loadBuiltInVariant('mock-backend');

describe('every variant answers every scenario identically', () => {
  after(() => assert.deepEqual(leftoverServers(), []));
  for (const name of builtInVariantNames()) {
    test(name, async (t) => {
      const variant = await loadBuiltInVariant(name);
      const reason = await variant.unavailable();
      if (reason) return t.skip(reason); // e.g. a native addon or runtime that cannot run on this machine
      for (const scenario of variant.scenarios) {
        const spec = { id: `${name} ${scenario}`, scenario, options };
        const { server, stop } = await startBenchmarkServer({ spec, variant, backend, plan, readyTimeout: 15, logFile: `${logDir}/${name}-${scenario}.log` });
        try {
          await verifyServer({ port: server.port, request: requestFor(variant, spec), variant: name, scenario, timeout: 5 });
        } finally {
          await stop();
        }
      }
    });
  }
});
