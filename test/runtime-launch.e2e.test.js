// Servers run on their runtime while the harness stays on its own Node: the argv's Node is
// replaced and the runtime's bin/ leads PATH (so `node server.js` finds it too). One test installs
// a real second Node.js from the npm registry into a temporary cache and serves a request on it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { currentPinning } from '../bench/measurement/pinning.js';
import { startServer } from '../bench/measurement/process/server.js';
import { RUNTIME_KINDS } from '../bench/measurement/runtime/kinds.js';
import { cachedVersions } from '../bench/measurement/runtime/cache.js';
import { newestMatching } from '../bench/measurement/runtime/spec.js';
import { resolveRuntime, runtimeCacheDir } from '../bench/measurement/runtime/resolve.js';
import { variantOnRuntime } from '../bench/measurement/runtime/variant.js';
import { commandVariant } from '../bench/measurement/variants.js';
import { npmEnvFor, runtimeTarball, startFakeRegistry } from './helpers/fake-registry.js';
import { setProcessEnv } from './helpers/harness.js';

const REPORTER = new URL('./fixtures/servers/runtime-reporter.js', import.meta.url).pathname;
const plan = currentPinning({});
let scratch;

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'perfgate-runtime-launch-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

// The reporter as a user's server on `runtime`, started, asked, stopped.
async function report(command, runtime) {
  const variant = variantOnRuntime(
    commandVariant('reporter', { command, scenarios: { hello: { path: '/', expect: { status: 200 } } } }),
    runtime,
  );
  const server = await startServer(variant, {
    plan,
    readyTimeout: 30,
    logFile: join(scratch, `reporter-${Date.now()}.log`),
  });
  try {
    return await (await fetch(`http://127.0.0.1:${server.port}/`)).json();
  } finally {
    await server.stop();
  }
}

test('a server runs on its runtime, by the harness Node in its argv and by `node` on PATH', async () => {
  const pkg = RUNTIME_KINDS.node.package();
  const registry = await startFakeRegistry({
    [pkg]: {
      '22.5.0': runtimeTarball({ name: pkg, version: '22.5.0', executable: 'bin/node', versionLine: 'v22.5.0' }),
    },
  });
  const npm = npmEnvFor(registry.url, scratch);
  const restoreEnv = setProcessEnv(npm);
  try {
    const runtime = await resolveRuntime('node@22', { cacheDir: join(scratch, 'fake-cache') });
    const byArgv = await report([process.execPath, REPORTER], runtime);
    assert.equal(byArgv.fakeRuntime, `${pkg}@22.5.0`);
    const byPath = await report(['node', REPORTER], runtime);
    assert.equal(byPath.fakeRuntime, `${pkg}@22.5.0`);
    assert.equal(process.env.PERFGATE_FAKE_RUNTIME, undefined, 'the harness is not on it');
  } finally {
    restoreEnv();
    await registry.close();
  }
});

// The one test that really downloads: a Node.js major other than the harness's, into a temporary cache.
test('a second Node.js, really installed from the npm registry, serves a request', async (t) => {
  const major = process.versions.node.startsWith('22.') ? 24 : 22;
  const pkg = RUNTIME_KINDS.node.package();
  try {
    await promisify(execFile)('npm', ['view', `${pkg}@${major}`, 'version'], { timeout: 60000 });
  } catch {
    t.skip(
      `the npm registry (npm config get registry) is not reachable from here: ${pkg}@${major} cannot be installed`,
    );
    return;
  }
  const runtime = await resolveRuntime(`node@${major}`, { cacheDir: join(scratch, 'real-cache') });
  assert.match(runtime.version, new RegExp(`^${major}\\.`));
  const answer = await report([process.execPath, REPORTER], runtime);
  assert.equal(answer.version, `v${runtime.version}`);
  assert.notEqual(answer.version, process.version, 'the harness stays on its own Node.js');
  assert.equal(answer.execPath, runtime.binary);
});

// Bun from the user's runtime cache when a run put it there; never downloaded by the tests.
test('on Bun, `node server.js` runs on Bun', async (t) => {
  const cacheDir = runtimeCacheDir();
  const pkg = RUNTIME_KINDS.bun.package();
  const version = newestMatching(cachedVersions(cacheDir, pkg), '*');
  if (!version) {
    t.skip(`Bun is not in the runtime cache ${cacheDir} (npm run bench -- --runtime bun installs it)`);
    return;
  }
  const runtime = await resolveRuntime(`bun@${version}`, { cacheDir });
  const answer = await report(['node', REPORTER], runtime);
  assert.equal(answer.bun, version);
});
