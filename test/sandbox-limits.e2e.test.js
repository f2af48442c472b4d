// A sandboxed side's server under its limits (bench/measurement/sandbox/server-limits.js), as root
// as CI runs it: it cannot move onto the load generator's core, and a fork bomb, a full file
// system or its memory limit stops it, its failure naming the limit, with nothing of it left.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpSync } from 'node:fs';
import { describe, test } from 'node:test';
import { describeVariants } from '../bench/measurement/describe/describe-variants.js';
import { installSandboxed } from '../bench/measurement/sandbox/install.js';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { cgroupsUnavailable } from '../bench/measurement/sandbox/cgroup.js';
import { allowedCpus } from '../bench/measurement/pinning.js';
import { SIDE_LIMITS } from '../bench/measurement/sandbox/limits.js';
import { runInPrivateNetwork } from '../bench/measurement/sandbox/private-network.js';
import { sideSandbox } from '../bench/measurement/sandbox/bubblewrap.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const STEP = new URL('./fixtures/sandbox/limits-step.js', import.meta.url);
const cpus = allowedCpus();
const skip =
  sandboxUnavailable() ?? cgroupsUnavailable() ?? (cpus.length < 2 ? 'one core: nothing to keep apart' : false);

const run = async (mode, limits = {}) => {
  const { result, leftBehind } = await runInPrivateNetwork(STEP, 'runLimited', {
    tree: tempDir(),
    mode,
    cpus,
    logFile: join(tempDir(), 'server.log'),
    limits,
  });
  assert.deepEqual(leftBehind, [], 'nothing of the side is left running');
  return result;
};

describe("a sandboxed side's limits", { skip }, () => {
  test("a server that moves itself onto the load generator's cores stays on its own", async () => {
    const { answer } = await run('affinity');
    assert.notEqual(answer.moved, 0, 'taskset was refused');
    assert.equal(answer.cpus, String(cpus.at(-1)));
  });

  test('a fork bomb fails the server with the process limit named', async () => {
    const { failed, cgroupsLeft } = await run('fork-bomb', { processes: 64 });
    assert.match(failed, /exited .* while starting: process limit reached \(64 processes and threads\)/);
    assert.deepEqual(cgroupsLeft, []);
  });

  test('a variant module that forks without end as the describe step imports it fails that step, the limit named', async () => {
    const tree = tempDir();
    cpSync(join(PROJECT_ROOT, 'test/fixtures/sandbox/bomb-servers'), join(tree, 'servers'), { recursive: true });
    const sandbox = sideSandbox({ label: 'head', root: tree });
    const usual = SIDE_LIMITS.processes;
    SIDE_LIMITS.processes = 64;
    try {
      await assert.rejects(
        describeVariants(['bomb'], {
          serversDir: join(tree, 'servers'),
          // The harness's servers/describe.js, readable as a comparison makes it (bench/comparison/sides.js).
          launch: { sandbox: { ...sandbox, readOnly: [...sandbox.readOnly, join(PROJECT_ROOT, 'servers')] } },
        }),
        /the describe step of .* failed: exited with signal SIGKILL: process limit reached \(64 processes and threads\)/,
      );
    } finally {
      SIDE_LIMITS.processes = usual;
    }
  });

  test('an install that reaches its memory limit fails, the limit named', () => {
    const usual = SIDE_LIMITS.memoryBytes;
    SIDE_LIMITS.memoryBytes = 256 * 1024 ** 2;
    try {
      const hog = 'const held = []; for (;;) held.push(Buffer.alloc(16 * 1024 * 1024, 1));';
      const installed = installSandboxed([process.execPath, '-e', hog], tempDir());
      assert.notEqual(installed.status, 0);
      assert.equal(installed.error?.message, 'the install stopped: memory limit 256 MiB reached');
    } finally {
      SIDE_LIMITS.memoryBytes = usual;
    }
  });

  test('a server that fills its file system is stopped, the limit named', async () => {
    // Stopped while starting, or soon after: either way its failure names the limit.
    const { failed, exit } = await run('fill-view', { viewBytes: 16 * 1024 ** 2 });
    assert.match(failed ?? exit?.limit ?? '', /file system limit 16 MiB reached/);
  });

  test('a server that reaches its memory limit fails with the limit named', async () => {
    const { failed } = await run('memory', { memoryBytes: 256 * 1024 ** 2 });
    assert.match(failed, /while starting: memory limit 256 MiB reached/);
  });
});
