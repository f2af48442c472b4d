// Engines declare themselves (bench/measurement/engines/seam.js): a fake engine, registered before any
// reader loads, is offered by --engine and its help, accepted by the suite schema, may hold a
// rate, has its packages recorded and is measured by client-check. No servers, no load.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { doubleEngine } from '../bench/measurement/engines/double.js';
import { ENGINES } from '../bench/measurement/engines/registered.js';

const FAKE = {
  ...doubleEngine(),
  name: 'fake',
  help: 'fake (a test double that paces)',
  packages: ['undici'],
  paces: true,
};
ENGINES.push(FAKE);

const { DEFAULT_ENGINE, ENGINE_NAMES, engineFor, enginePackages } = await import(
  '../bench/measurement/engines/seam.js'
);
const { SUITE_OPTIONS } = await import('../bench/cli/suite-options.js');
const { suiteSchema } = await import('../bench/config/schema.js');
const { engineRatios } = await import('../bench/measurement/engines/client-check.js');
const { default: Ajv } = await import('ajv');

test('--engine and --rate say what each engine declares', () => {
  assert.match(SUITE_OPTIONS.engine.help, /, or fake \(a test double that paces\)$/);
  assert.equal(SUITE_OPTIONS.engine.defaultText, DEFAULT_ENGINE);
  assert.match(SUITE_OPTIONS.rate.help, /autocannon, vegeta, fake only$/);
});

test('a suite may name it, and it may hold a rate', () => {
  assert.ok(ENGINE_NAMES.includes('fake'));
  const schema = suiteSchema({ variantNames: ['node-http'], scenarioNames: ['hello'] });
  const validate = new Ajv({ strict: false }).compile(schema.properties.engine);
  assert.ok(validate('fake'));
  assert.equal(engineFor('fake', 100), FAKE);
});

test('its packages are what a result records; client-check compares the default engine with it', () => {
  assert.deepEqual(enginePackages('fake'), ['undici']);
  assert.deepEqual(enginePackages('autocannon'), ['autocannon']);
  assert.deepEqual(enginePackages('wrk'), []);
  const ratios = engineRatios({ autocannon: 900, wrk: 1000, fake: 450 });
  assert.deepEqual(ratios, { 'autocannon/wrk': 0.9, 'autocannon/fake': 2 });
});
