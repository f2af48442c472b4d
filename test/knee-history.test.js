// The knee over time: bench --find-knee's knees become "<benchmark> - knee rate" lines of the
// history's knee group (bigger is better, the interval in range), which the site reads as a
// benchmark's metric over every load, like any other line. No servers.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { appendKneesToHistory, readHistoryFile } from '../bench/history/index.js';
import { kneeEntries, kneeSuiteName, TOOLS } from '../bench/results/benchmark-action.js';
import { metricByName } from '../bench/results/metrics.js';
import { sloProblems } from '../bench/results/slo.js';
import { describeBench, sampleLoadTag } from '../site/shared/bench-name.js';
import { tempDir } from './helpers/harness.js';

const run = { engine: 'vegeta', machine: { cpuModel: 'Test CPU', cores: 2, node: 'v20.0.0' } };
const about = { variant: 'express', scenario: 'json', tags: [], runtime: null };
const judged = [{ metric: 'p99 latency', bound: '< 50 ms', value: 12, met: true }];
const knees = [
  {
    benchmark: 'express json',
    about,
    knee: 1800,
    interval: [1800, 2000],
    clientBound: false,
    stoppedBy: 'precision',
    steps: [
      { rate: 1000, outcome: 'met' },
      { rate: 2000, outcome: 'broken' },
      { rate: 1800, outcome: 'met' },
    ],
    measured: [{ rate: 1000, judged }],
  },
  {
    benchmark: 'fastify hello[log=on,runtime=node@24]',
    about: { variant: 'fastify', scenario: 'hello', tags: ['log=on'], runtime: 'node@24' },
    knee: 4000,
    interval: [4000, null],
    clientBound: false,
    stoppedBy: 'steps',
    steps: [{ rate: 4000, outcome: 'met' }],
    measured: [{ rate: 4000, judged }],
  },
  // No rate held, a load failed, a server that cannot run here: no line.
  { benchmark: 'a b', about, knee: null, interval: [null, 500], steps: [], measured: [] },
  { benchmark: 'c d', about, failed: 'server failed to start', measured: [] },
  { benchmark: 'e f', skipped: 'not built', measured: [] },
];

test('a knee found is a bigger-is-better req/s line named after its benchmark, its interval in range', () => {
  const entries = kneeEntries(knees, run);
  assert.deepEqual(
    entries.map(({ extra, ...entry }) => entry),
    [
      { name: 'express json - knee rate', unit: 'req/s', value: 1800, range: '1800–2000 req/s' },
      { name: 'fastify hello[log=on,runtime=node@24] - knee rate', unit: 'req/s', value: 4000, range: '≥ 4000 req/s' },
    ],
  );
  assert.equal(metricByName('knee rate').direction, 'bigger');
  assert.match(
    entries[0].extra,
    /^variant: express\nscenario: json\noptions: default\nknee interval: 1800–2000 req\/s\n/,
  );
  assert.match(entries[0].extra, /upper end: an SLO broke at 2000 req\/s\nslo: p99 latency < 50 ms\n/);
  assert.match(entries[0].extra, /search: 1000 met, 2000 broken, 1800 met \(stopped by precision\)\nengine: vegeta\n/);
  assert.match(entries[1].extra, /options: log=on\nruntime: node@24\n/);
  const clientBound = kneeEntries([{ ...knees[0], clientBound: true }], run)[0];
  assert.match(clientBound.extra, /upper end: the client could not hold 2000 req\/s/);
});

test("the knees are a run of the history's knee group, apart from bench's throughput and latency", () => {
  const file = join(tempDir('perfgate-knee-history-'), 'data.js');
  const entries = kneeEntries(knees, run);
  appendKneesToHistory(entries, file, { commitDir: '/nonexistent', project: 'shop-api', date: 1 });
  appendKneesToHistory(entries, file, { commitDir: '/nonexistent', project: 'shop-api', date: 2 });
  const data = readHistoryFile(file);
  assert.deepEqual(Object.keys(data.entries), [kneeSuiteName('shop-api')]);
  assert.equal(kneeSuiteName('shop-api'), 'shop-api knee');
  const runs = data.entries['shop-api knee'];
  assert.equal(runs.length, 2);
  assert.equal(runs[0].tool, TOOLS.bigger);
  assert.deepEqual(
    runs[1].benches.map((bench) => [bench.name, bench.value, bench.range]),
    [
      ['express json - knee rate', 1800, '1800–2000 req/s'],
      ['fastify hello[log=on,runtime=node@24] - knee rate', 4000, '≥ 4000 req/s'],
    ],
  );
});

test('the site reads a knee line as its benchmark at no load point, with its options and runtime', () => {
  const [express, fastify] = kneeEntries(knees, run);
  const facts = (entry) => Object.fromEntries(entry.extra.split('\n').map((line) => line.split(/: (.*)/s).slice(0, 2)));
  const read = describeBench(express.name, express.unit, facts(express));
  assert.deepEqual(read, {
    id: 'express json',
    variant: 'express',
    runtime: 'system',
    scenario: 'json',
    tier: null,
    rate: null,
    metric: 'knee rate',
  });
  assert.equal(sampleLoadTag(read), '', 'no load tag in its chart title');
  const other = describeBench(fastify.name, fastify.unit, facts(fastify));
  assert.deepEqual([other.variant, other.scenario, other.runtime], ['fastify', 'hello[log=on]', 'node@24']);
});

test('the knee rate is no objective: an SLO on it names what it is and the metrics a run measures', () => {
  const [problem] = sloProblems({ slo: { 'knee rate': '> 1000 req/s' } });
  assert.match(
    problem,
    /^slo: "knee rate" is what bench --find-knee finds, not what a run measures: use one of req\/s, /,
  );
  assert.doesNotMatch(problem.split('use one of')[1], /knee rate/);
});
