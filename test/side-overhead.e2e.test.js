// npm run sandbox-overhead and agent-overhead at their smallest: this checkout's servers, one
// without and one with the sandbox (the runtime agent), really measured side by side (the
// plumbing; the ratio is the machine's business).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OVERHEADS, requireMeasured } from '../bench/comparison/side-overhead.js';
import { EXIT } from '../bench/core/errors.js';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';

// One duet round of node-http hello; resolves to the output and the benchmark of comparison.json.
function measureOverhead(script) {
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts', script),
      ...['--variant', 'node-http', '--scenario', 'hello', '--connections', '10'],
      ...['--duration', '0.3', '--warmup', '0', '--min-rounds', '1', '--max-rounds', '1', '--out', out],
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  const output = `${run.stdout}${run.stderr}`;
  assert.doesNotMatch(output, /skipped/);
  const [benchmark] = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')).benchmarks;
  assert.equal(benchmark.samples.head.length, 1);
  assert.deepEqual(leftoverServers(), []);
  return { output, benchmark };
}

test('sandbox-overhead measures the sandboxed checkout against the plain one', {
  skip: sandboxUnavailable() ?? false,
}, () => {
  const { output } = measureOverhead('sandbox-overhead.mjs');
  assert.match(output, /sandboxed \/ unsandboxed CPU µs\/request [\d.]+/);
});

test("agent-overhead measures a server with the runtime agent against one without: the head's only", () => {
  const { output, benchmark } = measureOverhead('agent-overhead.mjs');
  assert.match(output, /with the agent \/ without CPU µs\/request [\d.]+/);
  assert.ok(benchmark.samples.head[0].heapBytesPerRequest > 0, 'the head read its allocation');
  assert.equal(benchmark.samples.base[0].heapBytesPerRequest ?? null, null, 'the base ran without the agent');
});

test('sandbox-overhead fails, naming each reason and the fix, when no benchmark was measured', () => {
  const skipped = {
    benchmarks: [
      { id: 'node-http hello c=10', status: 'skipped', reason: 'it runs on bun@1.3 only' },
      { id: 'express hello c=10', status: 'failed', code: 'PG_SERVER_NOT_READY', reason: 'not ready\nsee its log' },
    ],
  };
  assert.throws(
    () => requireMeasured(skipped, OVERHEADS.sandbox.what),
    (error) => {
      assert.equal(error.code, 'PG_NOTHING_MEASURED');
      assert.equal(error.exitCode, EXIT.failed);
      assert.match(error.message, /^the sandbox's overhead measured nothing: no benchmark ran/);
      assert.match(error.message, /- node-http hello c=10: skipped: it runs on bun@1\.3 only\n/);
      assert.match(error.message, /- express hello c=10: failed: not ready see its log\n/);
      assert.match(error.message, /fix what each reason names, or choose benchmarks this machine can run/);
      return true;
    },
  );
  // One benchmark measured is a ratio: the others' skips are printed beside it.
  const measured = { benchmarks: [...skipped.benchmarks, { id: 'node-http json c=10', status: 'ok' }] };
  assert.doesNotThrow(() => requireMeasured(measured, OVERHEADS.sandbox.what));
});
