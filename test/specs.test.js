import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS, SUITES } from '../bench/config/suites.js';
import { measurementSettings } from '../bench/measurement/context.js';
import { benchmarkId, expandSpecs, optionSettings } from '../bench/measurement/specs.js';
import { closedLoad, openLoad } from '../site/shared/load-point.js';

const suite = (name) => ({ ...DEFAULTS, ...SUITES[name], options: { ...DEFAULTS.options, ...SUITES[name].options } });

test('the default suite is variants x scenarios x tiers', () => {
  const specs = expandSpecs(suite('default'));
  assert.equal(specs.length, 3 * 2 * 2);
  assert.equal(specs[0].id, 'node-http hello c=10');
  assert.equal(specs.at(-1).id, 'fastify json c=100');
});

test('proxy-baseline expands delay and logging into tagged benchmarks', () => {
  const specs = expandSpecs(suite('proxy-baseline'));
  assert.equal(specs.length, 2 * 4 * 10);
  const ids = specs.map((spec) => spec.id);
  assert.ok(ids.includes('express proxy c=50'));
  assert.ok(ids.includes('express proxy[delay=500ms] c=20000'));
  assert.ok(ids.includes('mock-backend proxy[delay=500ms,log=on] c=1000'));
});

test('options that do not change a scenario do not multiply it', () => {
  assert.equal(optionSettings({ ...DEFAULTS.options, backendDelayMs: [0, 500] }, 'hello').length, 1);
  assert.equal(optionSettings({ ...DEFAULTS.options, backendDelayMs: [0, 500] }, 'proxy').length, 2);
});

test('benchmark ids follow "<variant> <scenario>[<tags>] c=<connections>"', () => {
  assert.equal(
    benchmarkId({ variant: 'express', scenario: 'json', tags: [], load: closedLoad(100) }),
    'express json c=100',
  );
  assert.equal(
    benchmarkId({ variant: 'koa', scenario: 'io', tags: ['wait=2000ms'], load: closedLoad(300) }),
    'koa io[wait=2000ms] c=300',
  );
  assert.equal(
    benchmarkId({ variant: 'express', scenario: 'json', tags: [], load: openLoad(2000) }),
    'express json r=2000',
  );
});

test('rates are open load points after the tiers, named r=N, per scenario like scenarioConnections', () => {
  const config = { ...suite('default'), variants: ['express'], connections: [10], rates: [500, 2000] };
  const specs = expandSpecs({ ...config, scenarioRates: { json: [4000] } });
  assert.deepEqual(
    specs.map((spec) => spec.id),
    ['express hello c=10', 'express hello r=500', 'express hello r=2000', 'express json c=10', 'express json r=4000'],
  );
  assert.deepEqual(specs[1].rate, 500);
  assert.equal(specs[1].connections, undefined);
  assert.deepEqual(
    expandSpecs({ ...config, connections: [] }).map((spec) => spec.id),
    ['express hello r=500', 'express hello r=2000', 'express json r=500', 'express json r=2000'],
    'rates alone',
  );
});

test('node-vs-java runs each scenario at its own tiers: the db at c=30, 60, the 2 s wait at c=300, 600, 1000', () => {
  const ids = expandSpecs(suite('node-vs-java')).map((spec) => spec.id);
  assert.deepEqual(
    ids.filter((id) => id.startsWith('tomcat')),
    [
      'tomcat db c=30',
      'tomcat db c=60',
      'tomcat io[wait=2000ms] c=300',
      'tomcat io[wait=2000ms] c=600',
      'tomcat io[wait=2000ms] c=1000',
    ],
  );
  assert.equal(ids.length, 2 * 5);
});

test('proxy-clients names each client but the default, so proxy-baseline names stay as they were', () => {
  const ids = expandSpecs(suite('proxy-clients')).map((spec) => spec.id);
  assert.deepEqual(
    ids.filter((id) => id.startsWith('express')),
    [
      'express proxy c=1',
      'express proxy c=50',
      'express proxy[client=undici] c=1',
      'express proxy[client=undici] c=50',
      'express proxy[client=fetch] c=1',
      'express proxy[client=fetch] c=50',
    ],
  );
  assert.equal(expandSpecs(suite('proxy-clients'))[2].options.proxyClient, 'undici');
  assert.ok(!expandSpecs(suite('proxy-baseline')).some((spec) => spec.id.includes('client=')));
});

test('proxyClient changes only the proxy scenario', () => {
  assert.equal(optionSettings({ ...DEFAULTS.options, proxyClient: ['http', 'fetch'] }, 'json').length, 1);
  assert.equal(optionSettings({ ...DEFAULTS.options, proxyClient: ['http', 'fetch'] }, 'proxy').length, 2);
});

test("a benchmark's measurement settings: its own tier and the suite's load settings, not the whole config", () => {
  const config = { ...suite('proxy-baseline'), rate: 500, pipelining: 2 };
  const spec = expandSpecs(config).find((each) => each.id === 'express proxy c=50');
  assert.deepEqual(measurementSettings(config, spec), {
    load: closedLoad(50),
    duration: 10,
    warmup: 2,
    pipelining: 2,
    rate: 500,
    timeout: 5,
    workers: 0,
    readyTimeout: 15,
    runtimeAgent: false,
    soakRequests: 0,
  });
});
