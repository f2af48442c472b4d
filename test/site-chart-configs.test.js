// Chart.js configurations: what the charts will draw, checked without a browser.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../docs/lib/benchmark-data.js';
import { barChartConfig, markOf, tierChartConfig, trendChartConfig } from '../docs/lib/chart-configs.js';
import { filterChoices } from '../docs/lib/filters.js';
import { paletteFor, REGRESSION_COLOUR } from '../docs/lib/palette.js';
import { tierCurves } from '../docs/lib/tiers.js';
import { trendGroups } from '../docs/lib/trend.js';
import { readState } from '../docs/lib/url-state.js';
import { barSeries, variantTable } from '../docs/lib/variants-table.js';
import { readVerdicts } from '../docs/lib/verdicts.js';
import { runFixture } from './fixtures/site/load.js';

const data = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const verdicts = readVerdicts(runFixture('history-verdicts.js.txt').PERFGATE_VERDICTS);
const theme = { text: '#000', muted: '#555', grid: '#eee' };
const colours = paletteFor(['express', 'fastify', 'node-http']);
const state = readState('');

test('marks: a verdict shows as a diamond, a threshold regression as a triangle', () => {
  assert.deepEqual(markOf({ verdict: 'regression', regression: true }), { style: 'rectRot', colour: REGRESSION_COLOUR, radius: 7 });
  assert.equal(markOf({ verdict: 'improvement', regression: false }).style, 'rectRot');
  assert.equal(markOf({ verdict: null, regression: true }).style, 'triangle');
  assert.equal(markOf({ verdict: 'no change', regression: false }), null);
});

test('trend chart: a line per variant at commit positions, marked points drawn over it, clicks open the commit', () => {
  const group = trendGroups(data, state, filterChoices(data.samples), verdicts).find((candidate) => candidate.title === 'json c=100 · req/s');
  const opened = [];
  const config = trendChartConfig(group, { commits: data.commits, colours, theme, onPointClick: (index) => opened.push(index) });
  assert.deepEqual(config.data.datasets.map((dataset) => [dataset.label, dataset.data.map((point) => point.x)]),
    [['express', [0, 1, 2, 3]], ['express marks', [2]], ['fastify', [1, 2, 3]], ['node-http', [0, 1, 2, 3]]]);
  const marks = config.data.datasets[1];
  assert.deepEqual([marks.pointStyle, marks.pointBackgroundColor, marks.showLine], [['rectRot'], [REGRESSION_COLOUR], false]);
  const legend = config.data.datasets.map((_, datasetIndex) => config.options.plugins.legend.labels.filter({ datasetIndex }, config.data));
  assert.deepEqual(legend, [true, false, true, true], 'marks stay out of the legend');
  assert.equal(config.options.scales.x.ticks.callback(2), 'a625406');
  assert.equal(config.options.scales.x.ticks.callback(2.5), '');
  config.options.onClick({}, [{ datasetIndex: 0, index: 2 }], config);
  assert.deepEqual(opened, [2]);
  const tap = { native: { pointerType: 'touch' } };
  config.options.onClick(tap, [{ datasetIndex: 0, index: 1 }], config);
  assert.deepEqual(opened, [2], 'a first tap only shows the tooltip');
  config.options.onClick(tap, [{ datasetIndex: 0, index: 1 }], config);
  assert.deepEqual(opened, [2, 1]);
});

test('trend chart: a gap becomes a null that breaks the line', () => {
  const group = { unit: 'req/s', series: [{ label: 'express', points: [
    { commit: 0, value: 1, range: '', change: null, regression: false, verdict: null, gapBefore: false },
    { commit: 3, value: 2, range: '', change: 1, regression: false, verdict: null, gapBefore: true },
  ] }] };
  const config = trendChartConfig(group, { commits: data.commits, colours, theme, onPointClick: () => {} });
  assert.deepEqual(config.data.datasets[0].data.map(({ x, y }) => [x, y]), [[0, 1], [1.5, null], [3, 2]]);
});

test('tier chart: req/s and errors % per variant, the knee drawn as a star', () => {
  const [json] = tierCurves(data, 3, state);
  const config = tierChartConfig(json, { colours, theme });
  assert.deepEqual(config.data.labels, ['c=10', 'c=100', 'c=1000']);
  assert.deepEqual(config.data.datasets.map((dataset) => dataset.label), [
    'express req/s', 'express errors %', 'fastify req/s', 'fastify errors %', 'node-http req/s', 'node-http errors %']);
  assert.deepEqual(config.data.datasets[0].pointStyle, ['circle', 'circle', 'star']);
  assert.deepEqual(config.data.datasets[4].pointStyle, ['circle', 'circle', 'circle']);
  assert.deepEqual(config.data.datasets[3].data, [0, 0, 2]);
});

test('bar chart: one dataset per variant over the scenario and tier groups', () => {
  const bars = barSeries(variantTable(data, 3, readState('?scenario=json')).rows, 'req/s');
  const config = barChartConfig(bars, { metric: 'req/s', unit: 'req/s', colours, theme });
  assert.equal(config.type, 'bar');
  assert.deepEqual(config.data.labels, ['json c=10', 'json c=100', 'json c=1000']);
  assert.deepEqual(config.data.datasets.map((dataset) => [dataset.label, dataset.backgroundColor]),
    [...colours].map(([label, colour]) => [label, colour]));
});
