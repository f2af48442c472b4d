// Appending a run to benchmark data as github-action-benchmark does: one entry per suite,
// oldest first, bounded to maxItems, input data untouched, invalid runs refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendRun, emptyBenchmarkData } from '../bench/history/index.js';
import { benches, sampleRun } from './fixtures/history/helpers.js';

const values = (data, suite = 'perfgate throughput') => data.entries[suite].map((entry) => entry.benches[0].value);

test('runs are appended oldest first, one entry per suite, with the lastUpdate given', () => {
  let data = emptyBenchmarkData();
  for (const value of [1, 2, 3]) data = appendRun(data, sampleRun({ value, date: value }), { now: 100 + value }).data;
  assert.deepEqual(values(data), [1, 2, 3]);
  assert.equal(data.lastUpdate, 103);
  assert.deepEqual(data.entries['perfgate throughput'][2], {
    commit: sampleRun().commit,
    date: 3,
    tool: 'customBiggerIsBetter',
    benches: benches(3),
  });
});

test('a run of several suites adds an entry to each, and a suite without benches is left out', () => {
  const run = sampleRun();
  run.suites.push(
    { suite: 'perfgate latency', tool: 'customSmallerIsBetter', benches: [{ name: 'p99', value: 4, unit: 'ms' }] },
    { suite: 'perfgate memory', tool: 'customSmallerIsBetter', benches: [] },
  );
  const { data, added } = appendRun(emptyBenchmarkData(), run);
  assert.deepEqual(added, ['perfgate throughput', 'perfgate latency']);
  assert.deepEqual(Object.keys(data.entries), added);
  assert.equal(data.entries['perfgate latency'][0].tool, 'customSmallerIsBetter');
});

test('maxItems keeps the newest entries of each suite', () => {
  let data = emptyBenchmarkData();
  for (const value of [1, 2, 3, 4, 5]) data = appendRun(data, sampleRun({ value }), { maxItems: 3 }).data;
  assert.deepEqual(values(data), [3, 4, 5]);
  assert.throws(() => appendRun(data, sampleRun(), { maxItems: 0 }), /maxItems must be a whole number of at least 1/);
});

test('the given data is left as it was', () => {
  const before = appendRun(emptyBenchmarkData(), sampleRun({ value: 1 })).data;
  const snapshot = structuredClone(before);
  appendRun(before, sampleRun({ value: 2 }), { repoUrl: 'https://github.com/acme/api' });
  assert.deepEqual(before, snapshot);
});

test("repoUrl replaces the data's address only when given", () => {
  const data = { ...emptyBenchmarkData('https://github.com/acme/api') };
  assert.equal(appendRun(data, sampleRun()).data.repoUrl, 'https://github.com/acme/api');
  assert.equal(
    appendRun(data, sampleRun(), { repoUrl: 'https://github.com/acme/web' }).data.repoUrl,
    'https://github.com/acme/web',
  );
});

test('an invalid run is refused with the field at fault', () => {
  const run = sampleRun();
  run.commit.id = '';
  run.suites[0].tool = 'cargo';
  run.suites[0].benches[0].value = Number.NaN;
  assert.throws(
    () => appendRun(emptyBenchmarkData(), run),
    (error) => {
      assert.equal(error.code, 'PG_HISTORY_INVALID_RUN');
      assert.match(error.message, /run\.commit\.id must NOT have fewer than 1 characters/);
      assert.match(
        error.message,
        /run\.suites\[0\]\.tool must be equal to one of the allowed values \(customBiggerIsBetter, customSmallerIsBetter\)/,
      );
      assert.match(error.message, /run\.suites\[0\]\.benches\[0\]\.value must be number/);
      return true;
    },
  );
});

test('a suite named __proto__ is stored as a suite, not as a prototype', () => {
  const run = sampleRun();
  run.suites[0].suite = '__proto__';
  const { data } = appendRun(emptyBenchmarkData(), run);
  assert.ok(Object.hasOwn(data.entries, '__proto__'));
  assert.equal(Object.getPrototypeOf(data.entries), Object.prototype);
  // biome-ignore lint/suspicious/noProto: the test is that a key named __proto__ survives as data
  assert.equal(JSON.parse(JSON.stringify(data)).entries.__proto__.length, 1);
});
