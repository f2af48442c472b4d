// The trend view's shaping: suite sections, a chart per bench (or per perfgate scenario and tier),
// every unit by default for other tools' data, search, the opt-in neighbour mark, gaps.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { filterChoices } from '../site/lib/filters.js';
import { markedPoints, trendSections, worseRatio } from '../site/lib/trend.js';
import { readState } from '../site/lib/url-state.js';
import { runFixture } from './fixtures/site/load.js';
import { buildHistory, TOOL_SUITES } from './helpers/benchmark-history.js';

const fixture = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const tools = readBenchmarkData(buildHistory({ tools: Object.keys(TOOL_SUITES), commits: 12, rerunEvery: 5 }));

const sectionsOf = (data, search = '') => trendSections(data, readState(search), filterChoices(data));
const groupsOf = (data, search) => sectionsOf(data, search).flatMap((section) => section.groups);
const seriesOf = (groups, title, label) =>
  groups.find((group) => group.title === title).series.find((series) => series.label === label);

test('the alert ratio follows the direction of "better"', () => {
  assert.equal(worseRatio(100, 80, true), 1.25);
  assert.equal(worseRatio(10, 12, false), 1.2);
  assert.equal(worseRatio(0, 0, false), 1);
  assert.equal(worseRatio(0, 0.5, false), Infinity);
});

test('perfgate data: req/s and p99 latency under their suites, a chart per scenario and tier, a line per variant', () => {
  const sections = sectionsOf(fixture);
  assert.deepEqual(
    sections.map((section) => [section.suite, section.groups.length]),
    [
      ['perfgate throughput', 6],
      ['perfgate latency', 6],
    ],
  );
  assert.deepEqual(
    sections[0].groups.slice(0, 3).map((group) => group.title),
    ['json c=10 · req/s', 'json c=100 · req/s', 'json c=1000 · req/s'],
  );
  assert.equal(sections[1].groups[0].title, 'json c=10 · p99 latency');
  const chart = sections[0].groups[1];
  assert.deepEqual(
    chart.series.map((series) => [series.label, series.points.length]),
    [
      ['express', 4],
      ['fastify', 3],
      ['node-http', 4],
    ],
  );
  assert.deepEqual(chart.slots, [0, 1, 2, 3]);
});

test("other tools' data: every unit shown, a chart per bench per suite in the order of the file", () => {
  const choices = filterChoices(tools);
  assert.deepEqual(choices.defaultMetrics, choices.metric, 'nothing hidden by default');
  const sections = sectionsOf(tools);
  assert.deepEqual(
    sections.map((section) => section.suite),
    Object.values(TOOL_SUITES).map((tool) => tool.suite),
  );
  const go = sections[0];
  assert.deepEqual(
    go.groups.map((group) => [group.title, group.unit]),
    [
      ['BenchmarkFib10 - ns/op', 'ns/op'],
      ['BenchmarkFib10 - B/op', 'B/op'],
      ['BenchmarkFib10 - allocs/op', 'allocs/op'],
      ['BenchmarkFib/my_tabled_benchmark_-_20', 'ns/op'],
    ],
  );
  assert.equal(groupsOf(tools).length, 16);
  // 12 commits, two of them run twice: 14 points, the re-runs at their commit's place.
  const [series] = go.groups[0].series;
  assert.equal(series.points.length, 14);
  assert.deepEqual(
    series.points.slice(3, 7).map((point) => point.x),
    [3, 4, 4, 5],
  );
  // Values written as strings are plotted as numbers.
  const custom = sections.find((section) => section.suite === 'My Custom Smaller Is Better Benchmark');
  assert.equal(typeof custom.groups[0].series[0].points[0].value, 'number');
});

test('the same bench name in two suites stays two charts', () => {
  const run = (id, date) => ({
    commit: { id },
    date,
    tool: 'go',
    benches: [{ name: 'BenchmarkX', value: 1, unit: 'ns/op' }],
  });
  const data = readBenchmarkData({ entries: { linux: [run('a', 1)], windows: [run('a', 2), run('b', 3)] } });
  assert.deepEqual(
    sectionsOf(data).map((section) => [section.suite, section.groups[0].title, section.groups[0].slots]),
    [
      ['linux', 'BenchmarkX', [0]],
      ['windows', 'BenchmarkX', [0, 1]],
    ],
  );
});

test('suite filter and search narrow the charts', () => {
  assert.deepEqual(
    sectionsOf(tools, '?suite=Rust+Benchmark&suite=Go+Benchmark').map((section) => section.suite),
    ['Go Benchmark', 'Rust Benchmark'],
  );
  assert.deepEqual(
    groupsOf(tools, '?q=fib10+OP').map((group) => group.title),
    ['BenchmarkFib10 - ns/op', 'BenchmarkFib10 - B/op', 'BenchmarkFib10 - allocs/op'],
  );
  assert.deepEqual(
    groupsOf(tools, '?q=catch2').map((group) => group.title),
    ['Fibonacci 20'],
    'the suite name counts',
  );
  assert.deepEqual(
    groupsOf(tools, '?metric=ns/iter').map((group) => group.title),
    ['bench_fib_10', 'bench_fib_20'],
  );
  assert.deepEqual(sectionsOf(tools, '?q=nothing-like-this'), []);
});

test("the neighbour-ratio mark is off by default, and at the action's 200 % only a halving counts", () => {
  assert.ok(
    groupsOf(fixture).every((group) =>
      group.series.every((series) => series.points.every((point) => !point.regression)),
    ),
  );
  assert.deepEqual(markedPoints(sectionsOf(fixture)), []);
  const express = (search) =>
    seriesOf(groupsOf(fixture, search), 'json c=100 · req/s', 'express').points.map((point) => point.regression);
  assert.deepEqual(express('?threshold=200%25'), [false, false, false, false]);
  assert.deepEqual(express('?threshold=110%25'), [false, false, true, false]);
  const marked = markedPoints(sectionsOf(fixture, '?threshold=110%25'));
  assert.deepEqual(
    marked.map((point) => [point.sample.commit, point.name]),
    [
      [2, 'express json c=100 - p99 latency'],
      [2, 'express json c=1000 - p99 latency'],
      [2, 'express json c=100 - req/s'],
      [2, 'express json c=1000 - req/s'],
    ],
  );
});

test('filters narrow variants, tiers and metrics of perfgate data; a chart of one line names its server', () => {
  const groups = groupsOf(fixture, '?variant=fastify&tier=1000&metric=error+%25');
  assert.deepEqual(
    groups.map((group) => group.title),
    ['fastify · json c=1000 · error %', 'fastify · proxy[delay=500ms,log=on] c=1000 · error %'],
  );
  assert.ok(groups.every((group) => group.series.length === 1 && group.series[0].label === 'fastify'));
  assert.deepEqual(groupsOf(fixture, '?variant='), []);
});

test('a bench that disappears for a while leaves a gap; one that appears later starts late', () => {
  const benches = (names) => names.map((name) => ({ name: `express json c=1 - ${name}`, value: 1, unit: 'req/s' }));
  const entries = ['c1', 'c2', 'c3', 'c4'].map((id, index) => ({
    commit: { id },
    date: index,
    tool: 'customBiggerIsBetter',
    benches: benches(index === 1 ? ['p50 latency'] : index < 2 ? ['req/s'] : ['req/s', 'p50 latency']),
  }));
  const groups = groupsOf(readBenchmarkData({ entries: { s: entries } }), '?metric=req/s&metric=p50+latency');
  const [reqs, p50] = groups.map((group) => group.series[0].points);
  assert.deepEqual(
    reqs.map((point) => [point.x, point.gapBefore]),
    [
      [0, false],
      [2, true],
      [3, false],
    ],
  );
  assert.deepEqual(
    p50.map((point) => [point.x, point.gapBefore]),
    [
      [1, false],
      [2, false],
      [3, false],
    ],
  );
});

test('thousands of runs', () => {
  const data = readBenchmarkData(buildHistory({ tools: ['go', 'cargo'], commits: 3000 }));
  const groups = groupsOf(data);
  assert.equal(groups.length, 6);
  assert.ok(groups.every((group) => group.series[0].points.length === 3000 && group.slots.length === 3000));
});
