// The tier curve and its saturation knee.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { findKnee, tierCurves } from '../site/lib/tiers.js';
import { readState } from '../site/lib/url-state.js';
import { runFixture } from './fixtures/site/load.js';

const fixture = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const points = (...rows) => rows.map(([tier, reqPerSec, failurePct]) => ({ tier, reqPerSec, failurePct }));

test('the knee is the first tier past 1 % errors + timeouts or 10 % below the peak so far', () => {
  assert.deepEqual(findKnee(points([10, 100, 0], [100, 900, 0.5], [1000, 950, 1.5])), {
    tier: 1000,
    reason: 'errors + timeouts 1.5 %',
  });
  assert.deepEqual(findKnee(points([10, 100, 0], [100, 1000, 0], [200, 950, 0], [1000, 880, 0])), {
    tier: 1000,
    reason: 'req/s 12 % below peak',
  });
  assert.equal(
    findKnee(points([10, 100, 1], [100, 1000, 0], [1000, 900, 0])),
    null,
    'exactly 1 % and exactly 10 % are not past',
  );
  assert.equal(findKnee(points([10, 100, null], [100, null, null])), null, 'missing numbers are no evidence');
  assert.equal(findKnee([]), null);
});

test('curves at one commit: one per scenario, a line per variant, tiers in order', () => {
  const curves = tierCurves(fixture, 3, readState(''));
  assert.deepEqual(
    curves.map((curve) => [curve.scenario, curve.tiers, curve.variants.map((variant) => variant.variant)]),
    [
      ['json', [10, 100, 1000], ['express', 'fastify', 'node-http']],
      ['proxy[delay=500ms,log=on]', [10, 100, 1000], ['express', 'fastify']],
    ],
  );
  const json = Object.fromEntries(curves[0].variants.map((variant) => [variant.variant, variant]));
  assert.deepEqual(json.express.knee, { tier: 1000, reason: 'req/s 18.5 % below peak' });
  assert.deepEqual(json.fastify.knee, { tier: 1000, reason: 'errors + timeouts 2 %' });
  assert.equal(json['node-http'].knee, null);
  assert.deepEqual(
    json.fastify.points.map((point) => point.failurePct),
    [0, 0, 2],
  );
});

test('the tier filter does not cut the curve; variant and scenario filters do', () => {
  const curves = tierCurves(fixture, 3, readState('?tier=100&variant=express&scenario=json'));
  assert.equal(curves.length, 1);
  assert.deepEqual(
    curves[0].variants.map((variant) => variant.points.length),
    [3],
  );
});

test('without errors % in extra, the error % metric counts', () => {
  const bench = (metric, value) => ({ name: `a json c=10 - ${metric}`, value, unit: '' });
  const data = readBenchmarkData({
    entries: { s: [{ commit: { id: 'c' }, date: 1, tool: 'x', benches: [bench('req/s', 5), bench('error %', 3)] }] },
  });
  assert.deepEqual(tierCurves(data, 0, readState(''))[0].variants[0].knee, {
    tier: 10,
    reason: 'errors + timeouts 3 %',
  });
});
