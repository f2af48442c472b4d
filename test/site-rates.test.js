// r= benchmarks on the site: lines of their own beside the c= tiers (trend groups, variants rows),
// and the latency percentiles and error % against the offered rate (the tiers view's rate curves).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rateChartConfig } from '../site/lib/chart-configs.js';
import { filterChoices } from '../site/lib/filters.js';
import { paletteFor } from '../site/lib/palette.js';
import { rateCurves, tierCurves } from '../site/lib/tiers.js';
import { trendSections } from '../site/lib/trend.js';
import { readState } from '../site/lib/url-state.js';
import { variantTable } from '../site/lib/variants-table.js';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';

const bench = (id, metric, value, unit, facts = '') => ({ name: `${id} - ${metric}`, value, unit, extra: facts });
// express json at c=10 and at r=500 and r=2000 (facts as perfgate writes them), fastify at r=500.
const run = (tool, metric, unit, values) => ({
  commit: { id: 'c1' },
  date: 1,
  tool,
  benches: Object.entries(values).map(([id, value]) =>
    bench(
      id,
      metric,
      value,
      unit,
      id.includes(' r=') ? `offered rate: ${id.split('r=')[1]}\nerrors %: 0\ntimeouts %: 0` : '',
    ),
  ),
});
const data = readBenchmarkData({
  entries: {
    'perfgate throughput': [
      run('customBiggerIsBetter', 'req/s', 'req/s', {
        'express json c=10': 900,
        'express json r=500': 500,
        'express json r=2000': 1990,
        'fastify json r=500': 500,
      }),
    ],
    'perfgate latency': [
      {
        ...run('customSmallerIsBetter', 'p99 latency', 'ms', {
          'express json c=10': 20,
          'express json r=500': 4,
          'express json r=2000': 60,
          'fastify json r=500': 3,
        }),
        benches: [
          ...run('customSmallerIsBetter', 'p99 latency', 'ms', {
            'express json c=10': 20,
            'express json r=500': 4,
            'express json r=2000': 60,
            'fastify json r=500': 3,
          }).benches,
          bench('express json r=500', 'p50 latency', 1, 'ms', 'offered rate: 500'),
          bench('express json r=2000', 'p50 latency', 9, 'ms', 'offered rate: 2000'),
        ],
      },
    ],
  },
});

test('a rate is never a tier: r= samples have a rate and no tier', () => {
  const express500 = data.samples.find((sample) => sample.id === 'express json r=500');
  assert.equal(express500.rate, 500);
  assert.equal(express500.tier, null);
  assert.deepEqual(filterChoices(data).tier, ['10']);
});

test('trend: each rate is a chart of its own after the tiers, titled by its tag (one line: by its server too)', () => {
  const sections = trendSections(data, readState(''), filterChoices(data));
  assert.deepEqual(
    sections.flatMap((section) => section.groups.map((group) => [group.title, group.series.map((each) => each.label)])),
    [
      ['express · json c=10 · req/s', ['express']],
      ['json r=500 · req/s', ['express', 'fastify']],
      ['express · json r=2000 · req/s', ['express']],
      ['express · json c=10 · p99 latency', ['express']],
      ['json r=500 · p99 latency', ['express', 'fastify']],
      ['express · json r=2000 · p99 latency', ['express']],
    ],
  );
});

test('variants: a row per rate with an offered rate column; vs best compares within one rate', () => {
  const { columns, rows } = variantTable(data, 0, readState(''), filterChoices(data));
  assert.ok(columns.some((column) => column.key === 'rate' && column.label === 'offered rate'));
  assert.deepEqual(
    rows.map((row) => [row.variant, row.tier, row.rate, row.values['vs best']]),
    [
      ['express', 10, undefined, 1],
      ['express', null, 500, 1],
      ['express', null, 2000, 1],
      ['fastify', null, 500, 1],
    ],
  );
});

test('rate curves: p50 and p99 latency and errors % against the offered rate; tier curves leave rates out', () => {
  const [curve] = rateCurves(data, 0, readState(''));
  assert.equal(curve.scenario, 'json');
  assert.deepEqual(curve.rates, [500, 2000]);
  assert.deepEqual(curve.variants[0], {
    variant: 'express',
    points: [
      { rate: 500, p50: 1, p99: 4, failurePct: 0 },
      { rate: 2000, p50: 9, p99: 60, failurePct: 0 },
    ],
  });
  assert.deepEqual(
    tierCurves(data, 0, readState('')).map((each) => each.tiers),
    [[10]],
  );
  const config = rateChartConfig(curve, {
    colours: paletteFor(['express', 'fastify']),
    theme: { text: '#000', muted: '#555', grid: '#eee' },
  });
  assert.deepEqual(config.data.labels, ['r=500', 'r=2000']);
  assert.equal(config.options.scales.x.title.text, 'offered rate (req/s)');
  assert.deepEqual(
    config.data.datasets.filter((dataset) => dataset.label.startsWith('fastify')).map((dataset) => dataset.data),
    [
      [3, null],
      [null, null],
      [0, null],
    ],
  );
});
