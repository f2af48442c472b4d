// The scenario options' one home (servers/contract/options.js): the harness passes every option, a
// server refuses to start without one, and a bad value is named with the allowed ones.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { resolveSuite } from '../bench/config/resolve.js';
import { skipReason, loadBuiltInVariant } from '../bench/measurement/variants.js';
import { variantOnRuntime } from '../bench/measurement/runtime/variant.js';
import { OPTION_DEFAULTS, optionsEnv, readScenarioOptions } from '../servers/contract/options.js';

const rejects = (request, pattern) =>
  assert.rejects(resolveSuite(request), (error) => {
    assert.match(error.message, pattern);
    return true;
  });

test('what the harness passes is what a server reads back', () => {
  const options = { ...OPTION_DEFAULTS, proxyClient: 'undici', logging: true, ioDelayMs: 7 };
  const { echoBytes, ...serverSide } = options; // the echo body size never leaves the harness
  assert.deepEqual(readScenarioOptions(optionsEnv(options)), serverSide);
  assert.equal(echoBytes, 1024);
});

test('a server without an option stops with its name, not a default of its own', () => {
  const env = optionsEnv(OPTION_DEFAULTS);
  delete env.PERFGATE_PROXY_CLIENT;
  assert.throws(
    () => readScenarioOptions(env),
    /PERFGATE_PROXY_CLIENT is not set: perfgate passes every scenario option/,
  );
});

test('a bad value reaching a server names the allowed ones', () => {
  assert.throws(
    () => readScenarioOptions({ ...optionsEnv(OPTION_DEFAULTS), PERFGATE_PROXY_CLIENT: 'axios' }),
    /PERFGATE_PROXY_CLIENT="axios" is not valid \(allowed: http, undici, fetch\)/,
  );
  assert.throws(
    () => readScenarioOptions({ ...optionsEnv(OPTION_DEFAULTS), PERFGATE_IO_DELAY_MS: 'soon' }),
    /PERFGATE_IO_DELAY_MS="soon" is not valid \(allowed: a number\)/,
  );
});

test('a bad proxyClient in a suite names the allowed clients', async () => {
  await rejects(
    { suite: 'proxy-clients', overrides: { options: { proxyClient: 'axios' } } },
    /options\.proxyClient: "axios" is not allowed \(allowed: http, undici, fetch\)/,
  );
  await rejects(
    { suite: 'proxy-clients', overrides: { options: { proxyClient: ['http', 'got'] } } },
    /options\.proxyClient\.1: "got" is not allowed \(allowed: http, undici, fetch\)/,
  );
});

test('the backend and the servers in other languages skip the Node clients, with the reason', async () => {
  const fetchProxy = { scenario: 'proxy', options: { ...OPTION_DEFAULTS, proxyClient: 'fetch' } };
  assert.match(
    skipReason(await loadBuiltInVariant('go-nethttp'), fetchProxy),
    /forwards with Go's net\/http client, not a Node one: proxyClient=fetch does not apply \(it runs http\)/,
  );
  // On Bun (a runtime stand-in: only its name matters here), undici is Bun's stub.
  const onBun = variantOnRuntime(await loadBuiltInVariant('express'), { spec: 'bun', name: 'bun', version: '1.3.0' });
  assert.match(
    skipReason(onBun, { ...fetchProxy, options: { ...OPTION_DEFAULTS, proxyClient: 'undici' } }),
    /Bun replaces the undici package/,
  );
  assert.equal(skipReason(onBun, fetchProxy), null);
  assert.match(skipReason(await loadBuiltInVariant('tomcat'), fetchProxy), /Java's HttpClient/);
  assert.match(
    skipReason(await loadBuiltInVariant('mock-backend'), fetchProxy),
    /the backend answers the proxy route itself/,
  );
  assert.equal(skipReason(await loadBuiltInVariant('express'), fetchProxy), null);
  assert.equal(skipReason(await loadBuiltInVariant('go-nethttp'), { ...fetchProxy, options: OPTION_DEFAULTS }), null);
});

test('servers in every language refuse to start without an option, naming it', async (t) => {
  for (const name of ['node-http', 'go-nethttp', 'tomcat']) {
    const variant = await loadBuiltInVariant(name);
    const reason = variant.unavailable;
    if (reason) {
      t.diagnostic(`${name} skipped: ${reason}`);
      continue;
    }
    const env = { ...process.env, ...optionsEnv(OPTION_DEFAULTS), PORT: '0', HOST: '127.0.0.1' };
    delete env.PERFGATE_CPU_WORK;
    const [command, ...args] = variant.launch.command;
    const run = spawnSync(command, args, { env, encoding: 'utf8', timeout: 30000 });
    assert.notEqual(run.status, 0, `${name} started without PERFGATE_CPU_WORK`);
    assert.match(run.stderr, /perfgate server failed to start: PERFGATE_CPU_WORK is not set/, name);
  }
});
