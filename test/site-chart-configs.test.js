// Chart.js configurations: what the charts will draw, checked without a browser.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import {
  addChangePointOverlay,
  barChartConfig,
  changePointOverlay,
  isWorse,
  tierChartConfig,
  trendChartConfig,
} from '../site/lib/chart-configs.js';
import { filterChoices } from '../site/lib/filters.js';
import { IMPROVEMENT_COLOUR, paletteFor, REGRESSION_COLOUR } from '../site/lib/palette.js';
import { tierCurves } from '../site/lib/tiers.js';
import { trendSections } from '../site/lib/trend.js';
import { readState } from '../site/lib/url-state.js';
import { barSeries, variantTable } from '../site/lib/variants-table.js';
import { runFixture } from './fixtures/site/load.js';

const data = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const theme = { text: '#000', muted: '#555', grid: '#eee' };
const colours = paletteFor(['express', 'fastify', 'node-http']);
const state = readState('');

const sections = trendSections(data, readState('?threshold=110%25'), filterChoices(data));
const groupTitled = (title) => sections.flatMap((section) => section.groups).find((group) => group.title === title);

test("trend chart: a line per variant at its suite's commit slots, opt-in marks over it, dates on the axis, clicks open the commit", () => {
  const group = groupTitled('json c=100 · req/s');
  const opened = [];
  const config = trendChartConfig(group, {
    commits: data.commits,
    colours,
    theme,
    onPointClick: (index) => opened.push(index),
  });
  assert.deepEqual(
    config.data.datasets.map((dataset) => [dataset.label, dataset.data.map((point) => point.x)]),
    [
      ['express', [0, 1, 2, 3]],
      ['express marks', [2]],
      ['fastify', [1, 2, 3]],
      ['node-http', [0, 1, 2, 3]],
    ],
  );
  const marks = config.data.datasets[1];
  assert.deepEqual(
    [marks.pointStyle, marks.pointBackgroundColor, marks.showLine],
    ['triangle', REGRESSION_COLOUR, false],
  );
  const legend = config.data.datasets.map((_, datasetIndex) =>
    config.options.plugins.legend.labels.filter({ datasetIndex }, config.data),
  );
  assert.deepEqual(legend, [true, false, true, true], 'marks stay out of the legend');
  assert.equal(config.options.scales.x.ticks.callback(2), '2026-11-05');
  assert.equal(config.options.scales.x.ticks.callback(2.5), '');
  assert.equal(config.options.scales.y.beginAtZero, true, 'a non-negative series never gets a negative axis');
  assert.equal(config.options.plugins.tooltip.enabled, false, 'the page draws the tooltip in HTML');
  config.options.onClick({}, [{ datasetIndex: 0, index: 2 }], config);
  assert.deepEqual(opened, [2]);
  const tap = { native: { pointerType: 'touch' } };
  config.options.onClick(tap, [{ datasetIndex: 0, index: 1 }], config);
  assert.deepEqual(opened, [2], 'a first tap only shows the tooltip');
  config.options.onClick(tap, [{ datasetIndex: 0, index: 1 }], config);
  assert.deepEqual(opened, [2, 1]);
});

test('trend chart: a gap becomes a null that breaks the line', () => {
  const point = (x, value, gapBefore) => ({ x, value, gapBefore, change: null, regression: false, sample: {} });
  const group = {
    unit: 'req/s',
    slots: [0, 1, 2, 3],
    series: [{ label: 'express', points: [point(0, 1, false), point(3, 2, true)] }],
  };
  const config = trendChartConfig(group, { commits: data.commits, colours, theme, onPointClick: () => {} });
  assert.deepEqual(
    config.data.datasets[0].data.map(({ x, y }) => [x, y]),
    [
      [0, 1],
      [1.5, null],
      [3, 2],
    ],
  );
});

test('change points: the mean of each stretch as steps, a marker coloured by worse or better', () => {
  const series = { label: 'express', points: [0, 1, 1, 2, 3, 4].map((x) => ({ x })) };
  const changePoints = [
    { index: 2, before: { mean: 100, n: 2 }, after: { mean: 80, n: 2 }, change: -0.2, pValue: 0.0001 },
    { index: 4, before: { mean: 80, n: 2 }, after: { mean: 90, n: 2 }, change: 0.125, pValue: 0.0002 },
  ];
  const { steps, markers } = changePointOverlay(series, changePoints, { colour: '#123456', biggerIsBetter: true });
  assert.deepEqual(steps, [
    { x: 0, y: 100 },
    { x: 1, y: 80 },
    { x: 3, y: 90 },
    { x: 4, y: 90 },
  ]);
  assert.deepEqual(
    markers.data.map(({ x, y }) => [x, y]),
    [
      [1, 80],
      [3, 90],
    ],
  );
  assert.deepEqual(markers.pointBackgroundColor, [REGRESSION_COLOUR, IMPROVEMENT_COLOUR]);
  assert.deepEqual(markers.pointRotation, [180, 0]);
  assert.equal(isWorse(changePoints[1], false), true, 'up is worse for a timing');
  assert.equal(changePointOverlay(series, [], { colour: '#123456', biggerIsBetter: true }), null);
  // Added to a drawn chart: the markers as a dataset, the steps to the means plugin (never a tooltip target).
  const config = trendChartConfig(
    { unit: 'ns', slots: [0, 1, 2, 3, 4], series: [{ label: 'express', points: [] }] },
    { commits: data.commits, colours, theme, onPointClick: () => {} },
  );
  addChangePointOverlay(config, { steps, markers });
  assert.deepEqual(config.options.plugins.stepMeans, { colour: theme.text, lines: [steps] });
  assert.equal(config.data.datasets.at(-1), markers);
  assert.deepEqual(
    config.plugins.map((plugin) => plugin.id),
    ['intervalBands', 'stepMeans'],
  );
  assert.deepEqual(config.options.plugins.intervalBands.bands, [], 'no interval, no band');
});

test('a relative line: its intervals as a band, the baseline at 100 %, an axis that fits them', () => {
  const points = [
    { x: 0, value: 99, band: [98, 100.5] },
    { x: 1, value: 104, band: [103, 106] },
  ];
  const config = trendChartConfig(
    { unit: '%', relative: true, slots: [0, 1], series: [{ label: 'express', points }] },
    { commits: data.commits, colours, theme, onPointClick: () => {} },
  );
  const { bands, reference } = config.options.plugins.intervalBands;
  assert.deepEqual(bands, [{ colour: colours.get('express'), points }]);
  assert.equal(reference, 100);
  const { y } = config.options.scales;
  assert.deepEqual(
    [y.beginAtZero, y.suggestedMin, y.suggestedMax, y.title.text],
    [false, 98, 106, '% of the baseline'],
  );
});

test('tier chart: req/s and errors % per variant, the knee drawn as a star', () => {
  const [json] = tierCurves(data, 3, state);
  const config = tierChartConfig(json, { colours, theme });
  assert.deepEqual(config.data.labels, ['c=10', 'c=100', 'c=1000']);
  assert.deepEqual(
    config.data.datasets.map((dataset) => dataset.label),
    ['express req/s', 'express errors %', 'fastify req/s', 'fastify errors %', 'node-http req/s', 'node-http errors %'],
  );
  assert.deepEqual(config.data.datasets[0].pointStyle, ['circle', 'circle', 'star']);
  assert.deepEqual(config.data.datasets[4].pointStyle, ['circle', 'circle', 'circle']);
  assert.deepEqual(config.data.datasets[3].data, [0, 0, 2]);
});

test('bar chart: one dataset per variant over the scenario and tier groups', () => {
  const bars = barSeries(variantTable(data, 3, readState('?scenario=json'), filterChoices(data)).rows, 'req/s');
  const config = barChartConfig(bars, { metric: 'req/s', unit: 'req/s', colours, theme });
  assert.equal(config.type, 'bar');
  assert.deepEqual(config.data.labels, ['json c=10', 'json c=100', 'json c=1000']);
  assert.deepEqual(
    config.data.datasets.map((dataset) => [dataset.label, dataset.backgroundColor]),
    [...colours].map(([label, colour]) => [label, colour]),
  );
});
