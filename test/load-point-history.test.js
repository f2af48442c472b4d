// Names are trend identities: a result and a history written before the load point had a module
// of its own read exactly as they did then (test/fixtures/load-point/README.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { toBenchmarkAction } from '../bench/results/benchmark-action.js';
import { markdownTable } from '../bench/results/markdown.js';
import { resultProblems } from '../bench/results/schema.js';
import { loadPointViews } from './fixtures/load-point/views.js';

const expected = JSON.parse(readFileSync(new URL('./fixtures/load-point/expected.json', import.meta.url), 'utf8'));
const views = loadPointViews();

// A table's cells by column title, so that a metric added since (a column of its own) is no change.
function columns(markdown) {
  const rows = markdown.split('\n').filter((line) => line.startsWith('| '));
  const cells = (line) => line.slice(2, -2).split(' | ');
  const [titles, , ...body] = rows.map(cells);
  return Object.fromEntries(titles.map((title, index) => [title, body.map((row) => row[index])]));
}

test("an old result's table and github-action-benchmark entries are unchanged", () => {
  const table = columns(views.table);
  for (const [title, cells] of Object.entries(columns(expected.table))) assert.deepEqual(table[title], cells, title);
  assert.equal(views.table.split('\n')[0], expected.table.split('\n')[0]);
  // Entries and facts added since (a new metric's) are no change; every old one reads as it did.
  for (const file of ['bigger', 'smaller'])
    for (const { extra, ...entry } of expected.benchmarkAction[file]) {
      const now = views.benchmarkAction[file].find((each) => each.name === entry.name);
      assert.ok(now, `${file}: ${entry.name}`);
      assert.deepEqual({ ...now, extra: undefined }, { ...entry, extra: undefined }, entry.name);
      const lines = new Set(now.extra.split('\n'));
      for (const line of extra.split('\n')) assert.ok(lines.has(line), `${entry.name}: ${line}`);
    }
});

for (const history of ['history', 'siteHistory'])
  test(`an old history (${history}) reads the same on the site: names, filters, tier curves, charts, trend, variants`, () => {
    for (const view of Object.keys(expected[history]))
      assert.deepEqual(views[history][view], expected[history][view], `${history}: ${view}`);
  });

test('a result with a rate: valid, its rows name their load point, its entries say the offered rate', () => {
  const result = JSON.parse(readFileSync(new URL('./fixtures/load-point/result.json', import.meta.url), 'utf8'));
  const [first] = result.benchmarks;
  const { connections, ...rest } = first;
  result.benchmarks[0] = { ...rest, id: 'node-http hello r=2000', rate: 2000 };
  assert.deepEqual(resultProblems(result), []);
  const table = columns(markdownTable(result));
  assert.equal(table.Connections, undefined);
  assert.deepEqual(table.Load.slice(0, 3), ['r=2000', 'c=10', 'c=10']);
  const entry = toBenchmarkAction(result).bigger.find((each) => each.name === 'node-http hello r=2000 - req/s');
  assert.match(entry.extra, /^offered rate: 2000$/m);
  assert.doesNotMatch(entry.extra, /^connections:/m);
  result.benchmarks[0] = rest;
  assert.ok(
    resultProblems(result).some((problem) => problem.startsWith('/benchmarks/0')),
    'neither connections nor a rate',
  );
});
