// Where the page reads its data and how it reads and tells it: ?data= paths, their short
// names, the data.js text, the title from repoUrl, and what a point's tooltip says.
import test from 'node:test';
import assert from 'node:assert/strict';
import { dataPaths, ForeignDataError, sourceLabels } from '../site/shared/sources.js';
import { readDataScript } from '../site/lib/data-script.js';
import { repoTitle } from '../site/lib/repo.js';
import { pointDetails, describeChangePoint } from '../site/lib/point-details.js';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { packSamples, unpackSamples } from '../site/lib/sample-transfer.js';
import { buildHistory, toDataScript } from './helpers/benchmark-history.js';

const PAGE = 'https://octo-org.github.io/fib-bench/index.html';

test("?data= names one or several files of the same site; the default is the action's dev/bench/data.js", () => {
  assert.deepEqual(dataPaths('', PAGE), ['dev/bench/data.js']);
  assert.deepEqual(
    dataPaths('?data=main/dev/bench/data.js&data=pr-12/dev/bench/data.js&data=main/dev/bench/data.js', PAGE),
    ['main/dev/bench/data.js', 'pr-12/dev/bench/data.js'],
  );
  assert.deepEqual(dataPaths('?data=/fib-bench/bench/data.js', PAGE), ['/fib-bench/bench/data.js']);
  for (const foreign of ['https://evil.example/data.js', '//evil.example/data.js']) {
    assert.throws(
      () => dataPaths(`?data=${encodeURIComponent(foreign)}`, PAGE),
      (error) => error instanceof ForeignDataError && /is not on this site/.test(error.message),
    );
  }
});

test('several files are told apart by what their paths do not share', () => {
  assert.deepEqual(sourceLabels(['main/dev/bench/data.js', 'pr-12/dev/bench/data.js']), ['main', 'pr-12']);
  assert.deepEqual(sourceLabels(['data/main/data.js', 'data/pr/data.js']), ['main', 'pr']);
  assert.deepEqual(sourceLabels(['/tmp/x/main.js', '/tmp/x/pr.js']), ['main', 'pr']);
  assert.deepEqual(sourceLabels(['dev/bench/data.js']), ['dev/bench/data.js']);
});

test("data.js: the action's JSON form is parsed, other scripts are run, broken ones throw", () => {
  const history = buildHistory({ tools: ['go'], commits: 2 });
  assert.deepEqual(readDataScript(toDataScript(history)), history);
  assert.deepEqual(readDataScript(`${toDataScript(history)};\n`), history);
  assert.deepEqual(readDataScript('// hand-made\nwindow.BENCHMARK_DATA = { entries: {}, }; '), { entries: {} });
  assert.equal(readDataScript('var x = 1;'), undefined);
  assert.throws(() => readDataScript('window.BENCHMARK_DATA = { "entries": {'), SyntaxError);
});

test('the title comes from repoUrl', () => {
  assert.equal(repoTitle('https://github.com/octo-org/fib-bench'), 'octo-org/fib-bench');
  assert.equal(repoTitle('https://gitlab.example/group/sub/repo.git/'), 'group/sub/repo');
  assert.equal(repoTitle(null), null);
  assert.equal(repoTitle('not a url'), 'not a url');
});

test("a point's tooltip: run date, commit, author and committer, value with range, change, extra", () => {
  const data = readBenchmarkData(buildHistory({ tools: ['cargo'], commits: 2 }));
  const sample = data.samples[2];
  const details = pointDetails(
    { point: { sample, change: 0.05, regression: false } },
    { label: 'bench_fib_10', unit: 'ns/iter', commits: data.commits },
  );
  assert.equal(details.title, `${data.commits[1].short} · run 2025-01-07 10:00 UTC`);
  assert.match(details.message, /^Speed up fib, part 1\n\nA longer body/);
  assert.equal(details.people, 'by @ada, committed by @web-flow · committed 2025-01-07 09:00 UTC');
  assert.match(details.value, /^bench_fib_10: [\d.]+ ns\/iter \(± 24\)$/);
  assert.equal(details.change, '+5 % vs the previous run');
  assert.equal(details.mark, '');
  const changePoint = {
    index: 1,
    before: { mean: 100, n: 20 },
    after: { mean: 110, n: 5 },
    change: 0.1,
    pValue: 0.00002,
  };
  assert.equal(
    describeChangePoint(changePoint, 'ns'),
    'change point: mean 100 ns (20 runs) → 110 ns (5 runs), +10 %, p < 0.001',
  );
});

test('samples packed for the page come back as they were', () => {
  const data = readBenchmarkData(buildHistory({ tools: ['go', 'customSmallerIsBetter'], commits: 7, rerunEvery: 3 }));
  const { tables, slices } = packSamples(data.samples, 10);
  assert.equal(slices.length, Math.ceil(data.samples.length / 10));
  assert.ok(tables.benches.length === 6 && tables.facts.length < data.samples.length);
  const back = slices.flatMap(({ columns, transfer }) => {
    assert.ok(transfer.every((buffer) => buffer instanceof ArrayBuffer));
    return unpackSamples(structuredClone(tables), structuredClone(columns));
  });
  assert.deepEqual(back, data.samples);
});
