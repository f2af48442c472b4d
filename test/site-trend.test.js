// The trend view's shaping: groups and series, regression marks, verdicts, gaps, filters.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBenchmarkData } from '../docs/lib/benchmark-data.js';
import { filterChoices } from '../docs/lib/filters.js';
import { markedPoints, trendGroups, worseRatio } from '../docs/lib/trend.js';
import { readState } from '../docs/lib/url-state.js';
import { readVerdicts, verdictFor } from '../docs/lib/verdicts.js';
import { runFixture } from './fixtures/site/load.js';

const fixture = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
const fixtureVerdicts = readVerdicts(runFixture('history-verdicts.js.txt').PERFGATE_VERDICTS);
const noVerdicts = readVerdicts(undefined);

function groupsOf(data, search = '', verdicts = noVerdicts) {
  return trendGroups(data, readState(search), filterChoices(data.samples), verdicts);
}
const seriesOf = (groups, title, label) => groups.find((group) => group.title === title).series.find((series) => series.label === label);

test('the alert ratio follows the direction of "better"', () => {
  assert.equal(worseRatio(100, 80, true), 1.25);
  assert.equal(worseRatio(10, 12, false), 1.2);
  assert.equal(worseRatio(0, 0, false), 1);
  assert.equal(worseRatio(0, 0.5, false), Infinity);
});

test('default view: req/s and p99 latency, one chart per scenario and tier, one series per variant', () => {
  const groups = groupsOf(fixture);
  assert.equal(groups.length, 12);
  assert.deepEqual(groups.slice(0, 3).map((group) => group.title), ['json c=10 · req/s', 'json c=100 · req/s', 'json c=1000 · req/s']);
  assert.equal(groups[6].title, 'json c=10 · p99 latency');
  const chart = groups.find((group) => group.title === 'json c=100 · req/s');
  assert.deepEqual(chart.series.map((series) => [series.label, series.points.length]), [['express', 4], ['fastify', 3], ['node-http', 4]]);
});

test('a point worse than the previous by more than the threshold is marked, with its verdict', () => {
  const groups = groupsOf(fixture, '', fixtureVerdicts);
  const express = seriesOf(groups, 'json c=100 · req/s', 'express');
  assert.deepEqual(express.points.map((point) => point.regression), [false, false, true, false]);
  assert.equal(express.points[2].verdict, 'regression');
  assert.ok(Math.abs(express.points[2].change - -0.2158) < 0.001);
  assert.equal(seriesOf(groups, 'json c=10 · req/s', 'express').points[2].verdict, 'no change');
  // 17 % slower is marked at the default 10 % and not at 25 %.
  assert.equal(seriesOf(groups, 'json c=1000 · req/s', 'express').points[2].regression, true);
  assert.equal(seriesOf(groupsOf(fixture, '?threshold=125%25'), 'json c=1000 · req/s', 'express').points[2].regression, false);
});

test('marked points list the regressions and verdicts newest first', () => {
  const marked = markedPoints(groupsOf(fixture, '', fixtureVerdicts));
  assert.deepEqual(marked.map((point) => [point.commit, point.name]), [
    [3, 'fastify json c=100 - p99 latency'],
    [2, 'express json c=100 - p99 latency'],
    [2, 'express json c=100 - req/s'],
    [2, 'express json c=1000 - p99 latency'],
    [2, 'express json c=1000 - req/s'],
  ]);
});

test('verdicts match full or abbreviated shas and ignore unknown words; malformed verdicts are reported', () => {
  const verdicts = readVerdicts({ abcdef1: { x: 'regression', y: 'maybe' } });
  assert.equal(verdictFor(verdicts, `abcdef1${'0'.repeat(33)}`, 'x'), 'regression');
  assert.equal(verdictFor(verdicts, `abcdef1${'0'.repeat(33)}`, 'y'), null);
  assert.match(readVerdicts(['regression']).problem, /malformed/);
});

test('filters narrow variants, tiers and metrics', () => {
  const groups = groupsOf(fixture, '?variant=fastify&tier=1000&metric=error+%25');
  assert.deepEqual(groups.map((group) => group.title), ['json c=1000 · error %', 'proxy[delay=500ms,log=on] c=1000 · error %']);
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
  assert.deepEqual(reqs.map((point) => [point.commit, point.gapBefore]), [[0, false], [2, true], [3, false]]);
  assert.deepEqual(p50.map((point) => [point.commit, point.gapBefore]), [[1, false], [2, false], [3, false]]);
});

test('one entry, and thousands of entries', () => {
  const one = readBenchmarkData({ entries: { s: [{ commit: { id: 'c' }, date: 1, tool: 'customBiggerIsBetter', benches: [{ name: 'a b c=1 - req/s', value: 5 }] }] } });
  const [single] = groupsOf(one);
  assert.deepEqual(single.series[0].points.map((point) => [point.value, point.regression, point.change]), [[5, false, null]]);

  const commits = 3000;
  const entries = Array.from({ length: commits }, (_, index) => ({
    commit: { id: `c${index}` },
    date: index,
    tool: 'customBiggerIsBetter',
    // A 30 % drop every 500th commit, steady otherwise.
    benches: ['express', 'fastify'].map((variant) => ({ name: `${variant} json c=100 - req/s`, value: index % 500 === 499 ? 700 : 1000 })),
  }));
  const groups = groupsOf(readBenchmarkData({ entries: { s: entries } }));
  assert.equal(groups.length, 1);
  assert.deepEqual(groups[0].series.map((series) => series.points.length), [commits, commits]);
  assert.equal(markedPoints(groups).length, 2 * (commits / 500));
});
