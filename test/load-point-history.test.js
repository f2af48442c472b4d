// Names are trend identities: a result and a history written before the load point had a module
// of its own read exactly as they did then (test/fixtures/load-point/README.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadPointViews } from './fixtures/load-point/views.js';

const expected = JSON.parse(readFileSync(new URL('./fixtures/load-point/expected.json', import.meta.url), 'utf8'));
const views = loadPointViews();

test("an old result's table and github-action-benchmark entries are unchanged", () => {
  assert.equal(views.table, expected.table);
  assert.deepEqual(views.benchmarkAction, expected.benchmarkAction);
});

for (const history of ['history', 'siteHistory'])
  test(`an old history (${history}) reads the same on the site: names, filters, tier curves, charts, trend, variants`, () => {
    for (const view of Object.keys(expected[history]))
      assert.deepEqual(views[history][view], expected[history][view], `${history}: ${view}`);
  });
