// Variants side by side at one commit: the table, its sorting and the bar chart's series.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { barSeries, nextSort, sortRows, variantTable } from '../site/lib/variants-table.js';
import { readState } from '../site/lib/url-state.js';
import { filterChoices } from '../site/lib/filters.js';
import { runFixture } from './fixtures/site/load.js';

const fixture = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const choices = filterChoices(fixture);
// Every metric column, unless the search names the metrics.
const at = (commit, search = '') =>
  variantTable(fixture, commit, { ...readState(search), metric: readState(search).metric ?? choices.metric }, choices);
const summary = (rows) => rows.map((row) => `${row.variant} ${row.scenario} c=${row.tier}`);

test('a row per variant, scenario and tier; a column per metric; req/s against the fastest', () => {
  const { columns, rows } = at(3, '?scenario=json&tier=100');
  assert.deepEqual(
    columns.map((column) => column.label),
    [
      'variant',
      'scenario',
      'connections',
      'req/s',
      'p50 latency (ms)',
      'p99 latency (ms)',
      'error %',
      'peak RSS (MB)',
      'vs best',
    ],
  );
  assert.deepEqual(summary(sortRows(rows, null)), ['express json c=100', 'fastify json c=100', 'node-http json c=100']);
  const best = Object.fromEntries(rows.map((row) => [row.variant, Math.round(100 * row.values['vs best'])]));
  assert.deepEqual(best, { express: 40, fastify: 92, 'node-http': 100 });
  assert.equal(rows[0].clientSaturated, false);
  assert.deepEqual(at(3).machines, ['Intel Xeon Platinum 8375C x2, node v20.20.2']);
});

test('the metric chips choose the columns: by default req/s and p99 latency', () => {
  const columns = (state) => variantTable(fixture, 3, state, choices).columns.map((column) => column.key);
  assert.deepEqual(columns(readState('')), ['variant', 'scenario', 'tier', 'req/s', 'p99 latency', 'vs best']);
  assert.deepEqual(columns(readState('?metric=peak+RSS&metric=error+%25')), [
    'variant',
    'scenario',
    'tier',
    'error %',
    'peak RSS',
  ]);
});

test('a variant missing at a commit has no row there', () => {
  assert.deepEqual(summary(sortRows(at(0, '?scenario=json&tier=10').rows, null)), [
    'express json c=10',
    'node-http json c=10',
  ]);
});

test('sorting: by any column either way, missing values last, ties in natural order', () => {
  const { rows } = at(3, '?tier=1000');
  assert.deepEqual(summary(sortRows(rows, '-req/s')).slice(0, 2), ['node-http json c=1000', 'fastify json c=1000']);
  assert.deepEqual(summary(sortRows(rows, 'variant')).slice(0, 2), [
    'express json c=1000',
    'express proxy[delay=500ms,log=on] c=1000',
  ]);
  const partial = [
    { variant: 'a', scenario: 's', tier: 1, values: {} },
    { variant: 'b', scenario: 's', tier: 1, values: { x: 2 } },
  ];
  assert.deepEqual(
    sortRows(partial, '-x').map((row) => row.variant),
    ['b', 'a'],
  );
  assert.deepEqual(
    sortRows(partial, 'x').map((row) => row.variant),
    ['b', 'a'],
  );
});

test('a first click sorts best first, the next flips', () => {
  const reqs = { key: 'req/s', numeric: true, biggerIsBetter: true };
  const p99 = { key: 'p99 latency', numeric: true, biggerIsBetter: false };
  assert.equal(nextSort(null, reqs), '-req/s');
  assert.equal(nextSort('-req/s', reqs), 'req/s');
  assert.equal(nextSort('req/s', reqs), '-req/s');
  assert.equal(nextSort('-req/s', p99), 'p99 latency');
  assert.equal(nextSort(null, { key: 'variant', numeric: false }), 'variant');
});

test('bars: a group per scenario and tier, a bar per variant, null where a variant is missing', () => {
  const bars = barSeries(at(3, '?scenario=proxy%5Bdelay%3D500ms%2Clog%3Don%5D&tier=10&tier=100').rows, 'req/s');
  assert.deepEqual(bars.labels, ['proxy[delay=500ms,log=on] c=10', 'proxy[delay=500ms,log=on] c=100']);
  assert.deepEqual(
    bars.series.map((series) => series.label),
    ['express', 'fastify'],
  );
  const withGap = barSeries(
    at(0, '?scenario=json&tier=10').rows.concat({
      variant: 'fastify',
      scenario: 'json',
      tier: 100,
      values: { 'req/s': 1 },
    }),
    'req/s',
  );
  assert.deepEqual(
    withGap.series.map((series) => series.values),
    [
      [4000, null],
      [null, 1],
      [8000, null],
    ],
  );
});
