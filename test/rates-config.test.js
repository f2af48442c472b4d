// Rates in a suite (41.3): --rates, the suite's and perfgate.config's fields, and bad input named
// with its fix, refused before any server starts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suiteRequest } from '../bench/cli/suite-options.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { validateSuite, validateWith } from '../bench/config/schema.js';
import { projectSchema } from '../bench/project/schema.js';

const names = { variantNames: ['express'], scenarioNames: ['json'] };

test('--rates asks for exactly these rates and, without --connections, no tiers', () => {
  assert.deepEqual(suiteRequest({ rates: '500,1000' }).overrides, {
    rates: [500, 1000],
    scenarioRates: {},
    connections: undefined,
    scenarioConnections: {},
  });
  assert.deepEqual(suiteRequest({ rates: '500', connections: '10' }).overrides, {
    rates: [500],
    scenarioRates: {},
    connections: [10],
    scenarioConnections: {},
  });
});

test('a suite gives tiers, rates or both; a rate of 0, negative or not a number is named with its fix', () => {
  const suite = { variants: ['express'], scenarios: ['json'] };
  assert.deepEqual(validateSuite({ ...suite, rates: [500], scenarioRates: { json: [2000] } }, names), []);
  assert.ok(validateSuite(suite, names).some((problem) => /connections/.test(problem)));
  for (const [bad, shown] of [
    [0, '0'],
    [-5, '-5'],
    ['fast', '"fast"'],
  ])
    assert.ok(
      validateSuite({ ...suite, rates: [bad] }, names).includes(
        `rates.0: ${shown} is not a rate: give requests per second above 0 (e.g. "rates": [500, 1000], --rates 500,1000)`,
      ),
      String(bad),
    );
  assert.match(
    validateSuite({ ...suite, scenarioRates: { json: [0] }, rates: [1] }, names)[0],
    /^scenarioRates\.json\.0: 0 is not a rate/,
  );
});

test('rates on a closed-loop engine are refused before any server starts, naming --engine vegeta', async () => {
  for (const engine of ['autocannon', 'wrk'])
    await assert.rejects(resolveSuite(suiteRequest({ suite: 'smoke', rates: '500', engine })), {
      code: 'PG_ENGINE_NOT_OPEN',
      message: new RegExp(`"${engine}" is a closed loop .*add --engine vegeta`),
    });
});

test('perfgate.config takes rates, and a scenario its own (scenarioRates), with the same wording of a bad one', () => {
  const schema = projectSchema({ builtInNames: ['node-http'], builtInScenarios: ['hello'] });
  const project = {
    servers: { api: { command: ['node', 'server.js'] } },
    scenarios: { search: { method: 'GET', path: '/search', expect: { status: 200 } } },
    rates: [500, 1000],
    scenarioRates: { search: [2000] },
  };
  assert.deepEqual(validateWith(schema, project, 'servers'), []);
  assert.deepEqual(validateWith(schema, { ...project, scenarioRates: { search: [0] } }, 'servers'), [
    'scenarioRates.search.0: 0 is not a rate: give requests per second above 0 (e.g. "rates": [500, 1000], --rates 500,1000)',
  ]);
});
