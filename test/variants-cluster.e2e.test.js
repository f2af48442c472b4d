// node-cluster: ready only when every worker listens, all on one port, and no worker
// outlives its primary, even one killed without a chance to clean up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { planPinning } from '../bench/measurement/pinning.js';
import { startServer } from '../bench/measurement/process/server.js';
import { loadBuiltInVariant } from '../bench/measurement/variants.js';
import { OPTION_DEFAULTS, optionsEnv } from '../servers/contract/options.js';
import { leftoverServers, tempDir } from './helpers/harness.js';

const plan = planPinning([0], {}); // unpinned: the primary is the child itself

function childPids(pid) {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

after(() => assert.deepEqual(leftoverServers(), []));

test('node-cluster forks the configured workers, then its workers die with the primary', async () => {
  const variant = await loadBuiltInVariant('node-cluster');
  const server = await startServer(variant, {
    plan,
    readyTimeout: 15,
    logFile: `${tempDir()}/cluster.log`,
    env: { ...optionsEnv(OPTION_DEFAULTS), PERFGATE_SERVER_WORKERS: '3' },
  });
  try {
    const workers = childPids(server.pid);
    assert.equal(workers.length, 3);
    const answers = await Promise.all(
      workers.map(() => fetch(`http://127.0.0.1:${server.port}/hello`).then((response) => response.text())),
    );
    assert.deepEqual(answers, ['Hello World', 'Hello World', 'Hello World']);
    process.kill(server.pid, 'SIGKILL'); // the primary only, not its group
    for (let waited = 0; workers.some(alive) && waited < 5000; waited += 50) await sleep(50);
    assert.deepEqual(workers.filter(alive), []);
  } finally {
    await server.stop();
  }
});
