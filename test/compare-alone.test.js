// Each server alone beside duet: when compare measures it, what the report says of duet's
// shared-core figures, and the comparison.json it is kept in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { wantsAlone } from '../bench/comparison/alone.js';
import { invokedAs } from '../bench/core/invocation.js';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';

const sample = (cpuMicrosPerRequest, requestsPerSecond) => ({
  requestsPerSecond,
  p99LatencyMs: 20,
  cpuMicrosPerRequest,
});
const benchmark = (alone) => ({
  id: 'api users c=100',
  status: 'ok',
  rounds: 6,
  verdict: { verdict: 'regression', calledBy: 'CPU µs/request', resolved: true, notes: [] },
  verdicts: {
    'req/s': { verdict: 'regression', change: -0.08, ci: [-0.1, -0.06] },
    'p99 latency': { verdict: 'inconclusive', change: 0.02, ci: [-0.12, 0.15] },
    'CPU µs/request': { verdict: 'regression', change: 0.12, ci: [0.1, 0.14] },
  },
  samples: { base: [sample(600, 1500)], head: [sample(672, 1380)] },
  ...(alone ? { alone } : {}),
});
const comparisonWith = (benchmarks, mode = 'duet') => ({
  format: 'perfgate-comparison',
  version: 1,
  sides: { base: { description: 'main' }, head: { description: 'branch' } },
  ...comparisonFixture(),
  settings: { ...comparisonFixture().settings, mode },
  benchmarks,
  gate: { failed: true, failThreshold: 0.1, regressions: [], smallRegressions: [] },
});

test('duet measures alone what it called slower or faster, on request everything, never in sequential mode', () => {
  const called = (verdict) => ({ verdict: { verdict } });
  assert.equal(wantsAlone('auto', 'duet', called('regression')), true);
  assert.equal(wantsAlone('auto', 'duet', called('small improvement')), true);
  assert.equal(wantsAlone('auto', 'duet', called('no change')), false);
  assert.equal(wantsAlone('always', 'duet', called('no change')), true);
  assert.equal(wantsAlone('never', 'duet', called('regression')), false);
  assert.equal(wantsAlone('always', 'sequential', called('regression')), false);
});

test("the report puts each server alone beside duet's figures, and says why they differ from bench's", () => {
  const alone = { base: sample(250, 3900), head: sample(280, 3500), inflation: { base: 2.4, head: 2.4 } };
  const comparison = comparisonWith([benchmark(alone)]);
  const markdown = comparisonMarkdown(comparison);
  assert.match(markdown, /\*\*Each server alone\*\*/);
  assert.match(markdown, /higher and its req\/s lower than `bench` gives for one server/);
  assert.match(markdown, /\| api users c=100 \| 250 → 280 \| \+12\.0 % \| 2\.40×, 2\.40× \| 3,900 → 3,500 \|/);
  const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
  assert.ok(validate(comparison), JSON.stringify(validate.errors));
});

test('without a measurement alone, duet says its figures are shared-core ones and how to measure alone', () => {
  assert.match(comparisonMarkdown(comparisonWith([benchmark()])), /`--alone` measures each side alone as well/);
  // Named as the user runs perfgate: `npm run duet-cost` in this checkout, `perfgate duet-cost` installed.
  assert.match(comparisonMarkdown(comparisonWith([benchmark()])), /`npm run duet-cost` says by how much/);
  invokedAs('perfgate');
  assert.match(comparisonMarkdown(comparisonWith([benchmark()])), /`perfgate duet-cost` says by how much/);
  assert.doesNotMatch(comparisonMarkdown(comparisonWith([benchmark()], 'sequential')), /share the server cores/);
});
