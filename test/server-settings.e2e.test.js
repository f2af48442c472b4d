// Settings that change a server's results (bench/config/server-settings.js) are suite config
// fields: validated, defaulted, passed to every server, and recorded in result.json and in
// the github-action-benchmark `extra` text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveSuite } from '../bench/config/resolve.js';
import {
  describeServerSettings,
  SERVER_DEFAULTS,
  serverSettingsEnv,
  settingsInEnvironment,
} from '../bench/config/server-settings.js';
import { misbehavingCommand, readResult, runBench, tempDir, writeConfig } from './helpers/harness.js';

test('every suite has the server settings, defaulted, and a config file sets some of them', async () => {
  assert.deepEqual((await resolveSuite({ suite: 'smoke' })).config.server, SERVER_DEFAULTS);
  const file = writeConfig(tempDir(), {
    variants: ['node-http'],
    scenarios: ['hello'],
    connections: [1],
    server: { workers: 2, dbPoolSize: 4 },
  });
  const { config } = await resolveSuite({ configFile: file });
  assert.deepEqual(config.server, { ...SERVER_DEFAULTS, workers: 2, dbPoolSize: 4 });
});

test('a bad or unknown setting names the field', async () => {
  const file = writeConfig(tempDir(), {
    variants: ['node-http'],
    scenarios: ['hello'],
    connections: [1],
    server: { workers: -1, threads: 3 },
  });
  await assert.rejects(resolveSuite({ configFile: file }), (error) => {
    assert.equal(error.code, 'PG_BAD_CONFIG');
    assert.match(error.message, /server\.workers: must be >= 0/);
    assert.match(error.message, /server: unknown field "threads"/);
    return true;
  });
});

test('a setting left in the environment is refused, naming its config field', () => {
  assert.deepEqual(settingsInEnvironment({}), []);
  assert.match(
    settingsInEnvironment({ PERFGATE_TOMCAT_MAX_THREADS: '400' })[0],
    /PERFGATE_TOMCAT_MAX_THREADS is set in the environment: it is the suite config field server\.tomcatMaxThreads now/,
  );
});

test('the settings travel as the variables the servers read; 0 workers is one per server CPU', () => {
  assert.deepEqual(serverSettingsEnv({ ...SERVER_DEFAULTS, workers: 3 }), {
    PERFGATE_SERVER_WORKERS: '3',
    PERFGATE_TOMCAT_MAX_THREADS: '200',
    PERFGATE_TOMCAT_MAX_CONNECTIONS: '8192',
    PERFGATE_DB_POOL_SIZE: '10',
    NODE_OPTIONS: '--max-semi-space-size=1',
  });
  assert.equal(serverSettingsEnv(SERVER_DEFAULTS).PERFGATE_SERVER_WORKERS, '');
  assert.equal(serverSettingsEnv({ ...SERVER_DEFAULTS, nodeSemiSpaceMB: 0 }).NODE_OPTIONS, '');
  assert.equal(
    describeServerSettings(SERVER_DEFAULTS),
    'workers=one per server CPU, tomcatMaxThreads=200, tomcatMaxConnections=8192, dbPoolSize=10, nodeSemiSpaceMB=1 MB',
  );
  assert.deepEqual(
    settingsInEnvironment({ NODE_OPTIONS: '--enable-source-maps' }),
    [],
    'NODE_OPTIONS is added to, not refused',
  );
});

test('a run passes the settings to its server and records them in result.json and the extra text', {
  timeout: 60000,
}, async () => {
  const dir = tempDir();
  const envFile = join(dir, 'env.json');
  const config = writeConfig(dir, {
    name: 'settings',
    variants: ['mine'],
    scenarios: ['hello'],
    connections: [1],
    duration: 0.5,
    warmup: 0,
    readyTimeout: 5,
    server: { workers: 3, tomcatMaxThreads: 50 },
    commands: { mine: misbehavingCommand('ok', { ENV_OUT: envFile, NODE_OPTIONS: '--no-deprecation' }) },
  });
  const { code, stderr } = await runBench(['--config', config, '--out', dir, '--no-history']);
  assert.equal(code, 0, stderr);
  const seen = JSON.parse(readFileSync(envFile, 'utf8'));
  assert.equal(seen.PERFGATE_SERVER_WORKERS, '3');
  assert.equal(seen.PERFGATE_TOMCAT_MAX_THREADS, '50');
  assert.equal(seen.PERFGATE_DB_POOL_SIZE, '10');
  assert.match(
    seen.NODE_OPTIONS,
    /--no-deprecation --max-semi-space-size=1$/,
    "the young generation fixed, the command's own options kept",
  );
  assert.deepEqual(readResult(dir).config.server, { ...SERVER_DEFAULTS, workers: 3, tomcatMaxThreads: 50 });
  const [throughput] = JSON.parse(readFileSync(join(dir, 'benchmark-action-bigger.json'), 'utf8'));
  assert.match(
    throughput.extra,
    /^server settings: workers=3, tomcatMaxThreads=50, tomcatMaxConnections=8192, dbPoolSize=10, nodeSemiSpaceMB=1 MB$/m,
  );
});
