// Where timeouts begin (the proxy-baseline study): per server, the lowest load point whose
// requests timed out, at each model the run has, in the run's table; and the study's open-model
// suite, its tiers as offered rates. No servers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SUITES } from '../bench/config/suites.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { markdownTable } from '../bench/results/markdown.js';
import { timeoutOnsets } from '../bench/results/timeout-onset.js';

const fixture = () => JSON.parse(readFileSync(new URL('./fixtures/load-point/result.json', import.meta.url), 'utf8'));

// One server's sweep: tiers c=10, 100, 1000 and rates r=500, 2000, 8000, with these timeout shares.
function sweep(timeouts) {
  const result = fixture();
  const [template] = result.benchmarks;
  const { connections, ...rest } = template;
  const loads = [
    { connections: 1000, id: 'node-http hello c=1000' },
    { connections: 10, id: 'node-http hello c=10' },
    { connections: 100, id: 'node-http hello c=100' },
    { rate: 8000, id: 'node-http hello r=8000' },
    { rate: 500, id: 'node-http hello r=500' },
    { rate: 2000, id: 'node-http hello r=2000' },
  ];
  result.benchmarks = loads.map((load, index) => ({
    ...rest,
    ...load,
    summary: { ...template.summary, timeoutPct: timeouts[index] },
  }));
  return result;
}
const label = (benchmark) => `${benchmark.variant} ${benchmark.scenario}`;

test('timeouts begin at the lowest load point that timed out, per model, whatever the order measured', () => {
  const result = sweep([3, 0, 0.4, 20, 0, 1.5]);
  assert.deepEqual(timeoutOnsets(result.benchmarks, label), [
    { server: 'node-http hello', onsets: { closed: 'c=100 (0.40 %)', open: 'r=2000 (1.50 %)' } },
  ]);
  const none = sweep([0, 0, 0, 5, 0, 0]);
  assert.deepEqual(timeoutOnsets(none.benchmarks, label)[0].onsets, {
    closed: 'none up to c=1000',
    open: 'r=8000 (5.00 %)',
  });
});

test("the run's table says where timeouts begin beside each other, only when a request timed out", () => {
  const table = markdownTable(sweep([3, 0, 0.4, 20, 0, 1.5]));
  assert.match(
    table,
    /Where timeouts begin \(the lowest load point whose requests timed out\):\n\n\| Server \| connection tiers \| offered rates \|\n\| --- \| --- \| --- \|\n\| node-http hello \| c=100 \(0\.40 %\) \| r=2000 \(1\.50 %\) \|/,
  );
  assert.doesNotMatch(markdownTable(sweep([0, 0, 0, 0, 0, 0])), /timeouts begin/);
  assert.doesNotMatch(markdownTable(fixture()), /timeouts begin/);
});

test("proxy-baseline-open re-runs proxy-baseline's tiers as offered rates with the open-model engine", () => {
  const closed = SUITES['proxy-baseline'];
  const open = SUITES['proxy-baseline-open'];
  assert.equal(open.engine, 'vegeta');
  assert.deepEqual(open.rates, closed.connections);
  for (const field of ['variants', 'scenarios', 'options', 'duration', 'warmup', 'timeout'])
    assert.deepEqual(open[field], closed[field], field);
  const ids = expandSpecs({ ...open, name: 'proxy-baseline-open' }).map((spec) => spec.id);
  assert.ok(ids.includes('express proxy[delay=500ms,log=on] r=20000'), ids.join(', '));
  assert.ok(
    ids.every((id) => / r=\d+$/.test(id)),
    'no connection tier',
  );
});
