// Each sandboxed side on a network of its own (bench/measurement/sandbox/side-networks.js), run as
// root as CI runs: a head server tries the base's mock backend, its own, and listeners of the
// harness, and reaches only its own; the harness reaches the head at the head's address, never a
// server the head put on the base's, and the head's refused packets are counted. test/sandbox-hostile.e2e.test.js tries it in a comparison.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { asRoot, sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { runInPrivateNetwork } from '../bench/measurement/sandbox/private-network.js';
import { SIDE_NETWORKS } from '../bench/measurement/sandbox/side-networks.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

test('a sandboxed side reaches only its own side’s servers, and what it tried is counted', {
  skip: sandboxUnavailable() ?? (asRoot() ? false : 'not root: both sides run as one uid'),
}, async () => {
  const tree = tempDir();
  cpSync(join(PROJECT_ROOT, 'test/fixtures/sandbox/neighbour-prober.js'), join(tree, 'neighbour-prober.js'));
  const { result } = await runInPrivateNetwork(
    new URL('./fixtures/sandbox/fence-step.js', import.meta.url),
    'probeNeighbours',
    { tree, logFile: join(tempDir(), 'server.log') },
  );
  assert.deepEqual(result.results, {
    "the base's backend": 'ECONNREFUSED',
    'its own backend': 'reached',
    'a listener on every address, at its own address': 'ECONNREFUSED',
    'a listener on every address, at 127.0.0.1': 'ECONNREFUSED',
    'the harness on 127.0.0.1': 'ECONNREFUSED',
  });
  assert.equal(result.everyAddress, true);
  // A server it put on the base's address never answers the harness.
  assert.equal(result.squatted, 'TimeoutError');
  assert.equal(result.host, SIDE_NETWORKS.head.address);
  assert.match(result.network, /^its own addresses \(127\.0\.2\.0\/24\) and uid \(65532\)/);
  assert.deepEqual(result.refusals.length, 1);
  assert.ok(Number(result.refusals[0].match(/: (\d+) packets refused$/)[1]) >= 5, result.refusals[0]);
});
