// The trend site's reading of dev/bench/data.js: extra facts, bench names, tolerance.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseExtra, numericFact } from '../site/shared/extra.js';
import { describeBench, variantLabel } from '../site/shared/bench-name.js';
import { MalformedDataError, readBenchmarkData, readSources } from '../site/shared/benchmark-data.js';
import { filterChoices } from '../site/lib/filters.js';
import { tierCurves } from '../site/lib/tiers.js';
import { trendSections } from '../site/lib/trend.js';
import { readState } from '../site/lib/url-state.js';
import { variantTable } from '../site/lib/variants-table.js';
import { runFixture } from './fixtures/site/load.js';

const run = (id, date, benches, tool = 'customBiggerIsBetter') => ({
  commit: { id, message: `commit ${id}` },
  date,
  tool,
  benches,
});

test('extra: "key: value" lines, tolerant of anything else', () => {
  const facts = parseExtra('variant: express\nerrors %: 0.2\r\ncpu: Intel Xeon: 8375C x2\nfree text\n: no key');
  assert.deepEqual(facts, { variant: 'express', 'errors %': '0.2', cpu: 'Intel Xeon: 8375C x2' });
  assert.equal(numericFact(facts, 'errors %'), 0.2);
  assert.equal(numericFact(facts, 'variant'), null);
  assert.equal(numericFact(facts, 'missing'), null);
  assert.deepEqual(parseExtra(undefined), {});
});

test('bench names: perfgate form, options, extra wins, other tools fall back to the whole name', () => {
  assert.deepEqual(describeBench('express json c=100 - req/s', 'req/s', {}), {
    id: 'express json c=100',
    variant: 'express',
    runtime: 'system',
    scenario: 'json',
    tier: 100,
    rate: null,
    metric: 'req/s',
  });
  assert.deepEqual(describeBench('express proxy[delay=500ms,log=on] c=10 - p99 latency', 'ms', {}), {
    id: 'express proxy[delay=500ms,log=on] c=10',
    variant: 'express',
    runtime: 'system',
    scenario: 'proxy[delay=500ms,log=on]',
    tier: 10,
    rate: null,
    metric: 'p99 latency',
  });
  const facts = { variant: 'fastify', scenario: 'proxy', connections: '50', options: 'default' };
  assert.deepEqual(describeBench('renamed bench - req/s', 'req/s', facts), {
    id: 'renamed bench',
    variant: 'fastify',
    runtime: 'system',
    scenario: 'proxy',
    tier: 50,
    rate: null,
    metric: 'req/s',
  });
  assert.deepEqual(describeBench('express json r=2000 - p99 latency', 'ms', {}), {
    id: 'express json r=2000',
    variant: 'express',
    runtime: 'system',
    scenario: 'json',
    tier: null,
    rate: 2000,
    metric: 'p99 latency',
  });
  const rated = { variant: 'express', scenario: 'json', 'offered rate': '500', rate: '10 req/s per load' };
  assert.equal(describeBench('express json r=500 - req/s', 'req/s', rated).rate, 500);
  assert.deepEqual(describeBench('fib(20)', 'ops/sec', {}), {
    id: 'fib(20)',
    variant: null,
    scenario: null,
    tier: null,
    rate: null,
    runtime: null,
    metric: 'ops/sec',
  });
  assert.deepEqual(describeBench('parse - small input', '', {}), {
    id: 'parse - small input',
    variant: null,
    scenario: null,
    tier: null,
    rate: null,
    runtime: null,
    metric: 'value',
  });
});

test('a runtime other than system: from the extra text, else the name, and never part of the scenario', () => {
  const named = describeBench('express proxy[client=fetch,runtime=node@24] c=50 - req/s', 'req/s', {});
  assert.deepEqual([named.runtime, named.scenario], ['node@24', 'proxy[client=fetch]']);
  const told = describeBench('express hello[runtime=bun] c=100 - req/s', 'req/s', {
    runtime: 'bun',
    options: 'default',
  });
  assert.deepEqual([told.runtime, told.scenario], ['bun', 'hello']);
  assert.equal(variantLabel({ variant: 'express', runtime: 'node@24' }), 'express on node@24');
  assert.equal(variantLabel({ variant: 'express', runtime: 'system' }), 'express');
});

test('the fixture history: its commits, a commit axis per suite, every bench described', () => {
  const data = readBenchmarkData(runFixture('history-data.js.txt').BENCHMARK_DATA);
  assert.equal(data.commits.length, 4);
  assert.equal(data.skipped, 0);
  assert.deepEqual(
    data.commits.map((commit) => commit.short),
    ['2f22765', '6b1f533', 'a625406', 'e4666a6'],
  );
  assert.match(data.commits[2].message, /^Log every request in express/);
  assert.deepEqual(data.commits[2].committer, { name: 'Dev', username: 'dev' });
  assert.deepEqual(
    data.suites.map((suite) => [suite.name, suite.slots]),
    [
      ['perfgate throughput', [0, 1, 2, 3]],
      ['perfgate latency', [0, 1, 2, 3]],
    ],
  );
  const sample = data.samples.find(
    (candidate) => candidate.name === 'fastify json c=1000 - p99 latency' && candidate.commit === 3,
  );
  assert.equal(sample.biggerIsBetter, false);
  assert.equal(sample.unit, 'ms');
  assert.equal(sample.facts['errors %'], '2');
  assert.equal(sample.scenario, 'json');
  assert.ok(data.samples.every((candidate) => candidate.variant !== null && candidate.tier !== null));
});

test('plain action data: missing commit fields, unknown tools, no extra', () => {
  const data = readBenchmarkData({
    repoUrl: 'https://github.com/o/r/',
    entries: {
      'Benchmark.js Benchmark': [
        {
          commit: { id: 'a'.repeat(40) },
          date: 1,
          tool: 'benchmarkjs',
          benches: [{ name: 'fib(20)', value: 3, unit: 'ops/sec' }],
        },
      ],
    },
  });
  assert.equal(data.commits[0].url, `https://github.com/o/r/commit/${'a'.repeat(40)}`);
  assert.deepEqual(data.commits[0].author, { name: '', username: '' });
  assert.equal(data.samples[0].biggerIsBetter, true, 'the action counts benchmarkjs as bigger-is-better');
  assert.equal(data.samples[0].metric, 'ops/sec');
});

test('runs are ordered by date, and every run of a re-measured commit is kept at that commit', () => {
  const data = readBenchmarkData({
    entries: {
      a: [
        run('c2', 20, [{ name: 'x', value: 2 }]),
        run('c1', 10, [{ name: 'x', value: 1 }]),
        run('c2', 30, [{ name: 'x', value: 5 }]),
      ],
      b: [run('c2', 25, [{ name: 'x', value: 7 }])],
    },
  });
  assert.deepEqual(
    data.commits.map((commit) => commit.id),
    ['c1', 'c2'],
  );
  assert.deepEqual(
    data.samples.map((sample) => [sample.suite, sample.commit, sample.slot, sample.value]),
    [
      ['a', 0, 0, 1],
      ['a', 1, 1, 2],
      ['b', 1, 0, 7],
      ['a', 1, 1, 5],
    ],
  );
  assert.deepEqual(
    data.suites,
    [
      { name: 'a', slots: [0, 1] },
      { name: 'b', slots: [1] },
    ],
    'each suite has its own axis',
  );
});

test("go's combined bench (every metric of the line in its unit) has the first unit as its metric", () => {
  const data = readBenchmarkData({
    entries: {
      Benchmark: [
        {
          ...run('c1', 1, [
            {
              name: 'BenchmarkDBSetSmall',
              value: 7721,
              unit: 'ns/op\t   4.14 MB/s\t     344 B/op\t      15 allocs/op',
              extra: '140911 times\n4 procs',
            },
          ]),
          tool: 'go',
        },
        {
          ...run('c2', 2, [
            {
              name: 'BenchmarkDBSetSmall',
              value: 7690,
              unit: 'ns/op\t   4.16 MB/s\t     344 B/op\t      15 allocs/op',
              extra: '141011 times\n4 procs',
            },
          ]),
          tool: 'go',
        },
      ],
    },
  });
  assert.deepEqual(
    data.samples.map((sample) => [sample.unit, sample.metric]),
    [
      ['ns/op', 'ns/op'],
      ['ns/op', 'ns/op'],
    ],
  );
  assert.deepEqual(filterChoices(data).metric, ['ns/op']);
});

test("values written as numeric strings count, as on the action's page; other strings do not", () => {
  const data = readBenchmarkData({
    entries: {
      s: [
        run('c1', 1, [
          { name: 'a', value: '12.5', unit: 'ms' },
          { name: 'b', value: ' 3e2 ' },
          { name: 'c', value: '' },
          { name: 'd', value: '12 ms' },
          { name: 'e', value: Infinity },
        ]),
      ],
    },
  });
  assert.deepEqual(
    data.samples.map((sample) => [sample.name, sample.value]),
    [
      ['a', 12.5],
      ['b', 300],
    ],
  );
  assert.equal(data.skipped, 3);
});

test('several sources: suites named by their source, the first repoUrl, the newest lastUpdate', () => {
  const data = readSources([
    {
      label: 'main',
      raw: {
        repoUrl: 'https://github.com/o/r',
        lastUpdate: 5,
        entries: { s: [run('c1', 1, [{ name: 'x', value: 1 }])] },
      },
    },
    {
      label: 'pr-7',
      raw: {
        repoUrl: 'https://github.com/fork/r',
        lastUpdate: 9,
        entries: { s: [run('c2', 2, [{ name: 'x', value: 2 }])] },
      },
    },
  ]);
  assert.deepEqual(
    data.suites.map((suite) => suite.name),
    ['main · s', 'pr-7 · s'],
  );
  assert.deepEqual([data.repoUrl, data.lastUpdate], ['https://github.com/o/r', 9]);
  assert.equal(data.commits[1].url, 'https://github.com/fork/r/commit/c2');
  assert.throws(
    () => readSources([{ label: 'pr-7', raw: { entries: [] } }]),
    /pr-7: window.BENCHMARK_DATA has no "entries" object/,
  );
});

test('damaged runs and benches are skipped and counted; structural damage is a clear error', () => {
  const data = readBenchmarkData({
    entries: {
      a: [
        run('c1', 1, [{ name: 'x', value: 'fast' }, { value: 2 }, { name: 'y', value: 3 }]),
        { date: 'yesterday' },
        null,
      ],
    },
  });
  assert.equal(data.samples.length, 1);
  assert.equal(data.skipped, 4);
  for (const [raw, message] of [
    [undefined, /did not set window.BENCHMARK_DATA/],
    ['text', /not an object/],
    [{ lastUpdate: 1 }, /no "entries"/],
    [{ entries: { a: {} } }, /entries\["a"\] is not a list/],
  ])
    assert.throws(
      () => readBenchmarkData(raw),
      (error) => error instanceof MalformedDataError && message.test(error.message),
    );
});

test('no runs at all is data, not an error', () => {
  const data = readBenchmarkData(runFixture('empty-data.js.txt').BENCHMARK_DATA);
  assert.deepEqual([data.commits, data.samples], [[], []]);
});

test('odd but readable shapes never break the views', () => {
  const data = readBenchmarkData({
    entries: {
      odd: [
        { commit: null, date: 1, benches: [{ name: ' - ', value: 1, unit: 7, extra: { not: 'text' } }] },
        {
          commit: { id: 42, message: ['x'] },
          date: 2,
          tool: null,
          benches: [
            { name: 'x y c=abc - req/s', value: 0 },
            { name: 'x y c=2 - req/s', value: -1, extra: 'connections: lots' },
          ],
        },
      ],
    },
  });
  const state = readState('');
  const choices = filterChoices(data);
  const sections = trendSections(data, state, choices);
  assert.ok(sections[0].groups.length > 0);
  assert.deepEqual(
    data.commits.map((commit) => commit.id),
    ['run-1', 'run-2'],
  );
  for (const commit of [0, 1]) {
    assert.doesNotThrow(() => tierCurves(data, commit, state));
    assert.doesNotThrow(() => variantTable(data, commit, state, choices));
  }
});
