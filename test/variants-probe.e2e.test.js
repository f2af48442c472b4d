// A variant that cannot run here (a runtime that does not start, a native addon that does not
// load) is skipped with a one-line reason that names the cause.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtInVariantNames, loadBuiltInVariants } from '../bench/measurement/variants.js';
import { serverWorkers } from '../servers/workers/parallelism.js';
import { commandProblem } from '../servers/probes/probe.js';

test('a command that runs is no problem', () => {
  assert.equal(commandProblem([process.execPath, '-e', ''], 'node'), null);
});

test('a binary that is missing is named with the cause', () => {
  assert.match(commandProblem(['/nonexistent/bun', '--version'], 'bun'), /^bun cannot run here: .*ENOENT/);
});

test("a native addon's load error gives its last Error line, not the stack", () => {
  const addon =
    "throw new Error('This version of uWS.js supports only...\\n\\nError: libc.so.6: version `GLIBC_2.38` not found')";
  assert.equal(
    commandProblem([process.execPath, '-e', addon], 'uWebSockets.js'),
    'uWebSockets.js cannot run here: Error: libc.so.6: version `GLIBC_2.38` not found',
  );
});

test('every variant says on one line why it cannot run, or nothing', async () => {
  for (const { name, unavailable: reason } of await loadBuiltInVariants(builtInVariantNames())) {
    assert.ok(reason === null || (typeof reason === 'string' && !reason.includes('\n')), `${name}: ${reason}`);
  }
});

test('the multi-core variants start one worker per CPU unless told otherwise', () => {
  assert.equal(serverWorkers({}), serverWorkers({ PERFGATE_SERVER_WORKERS: '' }));
  assert.ok(serverWorkers({}) >= 1);
  assert.equal(serverWorkers({ PERFGATE_SERVER_WORKERS: '3' }), 3);
  assert.throws(() => serverWorkers({ PERFGATE_SERVER_WORKERS: 'two' }), /PERFGATE_SERVER_WORKERS="two"/);
});
