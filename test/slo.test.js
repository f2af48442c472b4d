// SLOs in k6's threshold convention, on constructed results: bounds parsed against the metric
// registry (bad ones named with their fix), per-benchmark objectives over the suite's, each judged
// met, broken or not judged (not measured; latency of an open load whose client fell behind).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  benchmarkSlo,
  judgeSuiteSlo,
  objectivesFor,
  sloProblems,
  sloReport,
  unmatchedSloKeys,
} from '../bench/results/slo.js';

const spec = (variant, scenario, connections = 10) => ({
  id: `${variant} ${scenario} c=${connections}`,
  variant,
  scenario,
  connections,
});

const measured = ({ p99 = 20, errorPct = 0, behind = false, id = 'express json c=10' } = {}) => ({
  ...spec(...id.split(' ').slice(0, 2)),
  id,
  status: 'ok',
  runs: [{ loadGenerator: { saturated: behind, ...(behind ? { schedule: { behind: true } } : {}) } }],
  summary: {
    requests: { mean: 1000 },
    latencyMs: { avg: 5, p50: 4, p90: 10, p99, max: 80 },
    errorPct,
    cpuMicrosPerRequest: 120,
    peakRssBytes: 50 * 1024 * 1024,
    metrics: {},
  },
});

test("bounds: <, <=, > or >= a number, in the metric's unit or none", () => {
  const config = { slo: { 'p99 latency': '< 50 ms', 'error %': '<0.1', 'req/s': '>= 800 req/s' } };
  assert.deepEqual(sloProblems(config), []);
  assert.deepEqual(
    objectivesFor(config, spec('express', 'json')).map((each) => each.text),
    ['< 50 ms', '< 0.1 %', '>= 800 req/s'],
  );
});

test('bad input: an unknown metric, a malformed bound, a wrong unit, each named with its fix', () => {
  const problems = sloProblems({
    slo: { 'p99 latncy': '< 50 ms', 'p99 latency': '50 ms' },
    benchmarkSlo: { express: { 'p99 latency': '< 0.05 s' } },
  });
  assert.equal(problems.length, 3);
  assert.match(problems[0], /^slo: "p99 latncy" is not a metric: use one of req\/s, p50 latency, p99 latency, /);
  assert.match(
    problems[1],
    /^slo: "p99 latency": "50 ms" is not a bound: write <, <=, > or >=, a number and its unit \(e\.g\. "< 50 ms"\)/,
  );
  assert.match(problems[2], /^benchmarkSlo\.express: "p99 latency": "< 0\.05 s" is in s, but p99 latency is in ms/);
  assert.match(
    unmatchedSloKeys({ benchmarkSlo: { koa: {} } }, [spec('express', 'json')])[0],
    /^benchmarkSlo\.koa: names no benchmark \(use .*; benchmarks: express json c=10\)/,
  );
});

test("a benchmark's own objectives replace the suite's per metric, the most specific key last", () => {
  const config = {
    slo: { 'p99 latency': '< 50 ms', 'error %': '< 1' },
    benchmarkSlo: { json: { 'p99 latency': '< 30 ms' }, 'express json c=10': { 'p99 latency': '< 20 ms' } },
  };
  const texts = (each) => objectivesFor(config, each).map((objective) => `${objective.metric} ${objective.text}`);
  assert.deepEqual(texts(spec('express', 'json')), ['p99 latency < 20 ms', 'error % < 1 %']);
  assert.deepEqual(texts(spec('fastify', 'json')), ['p99 latency < 30 ms', 'error % < 1 %']);
  assert.deepEqual(texts(spec('fastify', 'hello')), ['p99 latency < 50 ms', 'error % < 1 %']);
});

test('judged on the summary: met, broken, not measured', () => {
  const config = { slo: { 'p99 latency': '< 50 ms', 'error %': '< 0.1', 'heap bytes/request': '< 1000 B' } };
  assert.deepEqual(
    benchmarkSlo(config, measured({ p99: 60 })).map(({ metric, value, met }) => [metric, value, met]),
    [
      ['p99 latency', 60, false],
      ['error %', 0, true],
      ['heap bytes/request', null, null],
    ],
  );
});

test('an open load whose client fell behind: its latency is not judged, its errors are', () => {
  const judged = benchmarkSlo(
    { slo: { 'p99 latency': '< 50 ms', 'error %': '< 0.1' } },
    measured({ p99: 900, errorPct: 5, behind: true }),
  );
  assert.equal(judged[0].met, null);
  assert.match(judged[0].why, /the client did not hold the schedule/);
  assert.equal(judged[1].met, false);
});

test("a suite's result: each measured benchmark keeps its judged objectives, the report counts the broken", () => {
  const result = {
    benchmarks: [
      measured({ p99: 10, id: 'express json c=10' }),
      measured({ p99: 70, id: 'fastify json c=10' }),
      { ...spec('koa', 'json'), status: 'failed', runs: [] },
    ],
  };
  judgeSuiteSlo({ slo: { 'p99 latency': '< 50 ms' } }, result);
  assert.equal(result.benchmarks[2].slo, undefined);
  const report = sloReport(result.benchmarks);
  assert.equal(report.broken, 1);
  assert.deepEqual(report.lines, [
    'express json c=10: p99 latency 10 ms, < 50 ms: met',
    'fastify json c=10: p99 latency 70 ms, < 50 ms: BROKEN',
  ]);
  const none = { benchmarks: [measured()] };
  judgeSuiteSlo({}, none);
  assert.deepEqual(sloReport(none.benchmarks), { lines: [], broken: 0 });
});
