// npm run sandbox-overhead at its smallest: this checkout's servers, one unsandboxed and one in
// the sandbox, really measured side by side (the plumbing; the ratio is the machine's business).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { requireMeasured } from '../bench/comparison/sandbox-overhead.js';
import { EXIT } from '../bench/core/errors.js';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';

test('sandbox-overhead measures the sandboxed checkout against the plain one', {
  skip: sandboxUnavailable() ?? false,
}, () => {
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/sandbox-overhead.mjs'),
      ...['--variant', 'node-http', '--scenario', 'hello', '--connections', '10'],
      ...['--duration', '0.3', '--warmup', '0', '--min-rounds', '1', '--max-rounds', '1', '--out', out],
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(`${run.stdout}${run.stderr}`, /skipped/);
  assert.match(`${run.stdout}${run.stderr}`, /sandboxed \/ unsandboxed CPU µs\/request [\d.]+/);
  const [benchmark] = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')).benchmarks;
  assert.equal(benchmark.samples.head.length, 1);
  assert.deepEqual(leftoverServers(), []);
});

test('sandbox-overhead fails, naming each reason and the fix, when no benchmark was measured', () => {
  const skipped = {
    benchmarks: [
      { id: 'node-http hello c=10', status: 'skipped', reason: 'it runs on bun@1.3 only' },
      { id: 'express hello c=10', status: 'failed', code: 'PG_SERVER_NOT_READY', reason: 'not ready\nsee its log' },
    ],
  };
  assert.throws(
    () => requireMeasured(skipped),
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
  assert.doesNotThrow(() => requireMeasured(measured));
});
