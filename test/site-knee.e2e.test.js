// The knee over time on the trend site, in Debian's chromium: a history whose knee group holds
// bench --find-knee's lines for two servers over a few commits (one step down) shows them as a
// trend chart like any metric, beside bench's own lines. Screenshots go to test-output/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appendRun } from '../bench/history/append.js';
import { emptyBenchmarkData, serializeBenchmarkData } from '../bench/history/format.js';
import { kneeEntries, kneeSuiteName, suiteNames, TOOLS } from '../bench/results/benchmark-action.js';
import { chromiumMissing } from './helpers/browser.js';
import {
  chartsOnPage,
  datasetSummary,
  drawAll,
  openPage,
  siteOverHistory,
  outputDir,
  waitForCharts,
} from './helpers/site-page.js';

const skip = chromiumMissing;
const machine = { cpuModel: 'Test CPU', cores: 2, node: 'v20.0.0' };
const COMMITS = 5;

const knee = (variant, rate) => ({
  benchmark: `${variant} json`,
  about: { variant, scenario: 'json', tags: [], runtime: null },
  knee: rate,
  interval: [rate, Math.round(rate * 1.08)],
  clientBound: false,
  stoppedBy: 'precision',
  steps: [{ rate, outcome: 'met' }],
  measured: [{ rate, judged: [{ metric: 'p99 latency', bound: '< 50 ms', value: 20, met: true }] }],
});

function history() {
  let data = emptyBenchmarkData();
  for (let index = 0; index < COMMITS; index++) {
    const commit = {
      id: `${index}`.repeat(40).slice(0, 40),
      message: `commit ${index}`,
      timestamp: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
      url: '',
      author: { name: 'a', email: '', username: 'a' },
      committer: { name: 'a', email: '', username: 'a' },
    };
    // bench's own run of the commit, then its knee search: two groups, one point each per commit.
    const requests = { name: 'express json c=100 - req/s', unit: 'req/s', value: 9000 + index * 10 };
    const knees = kneeEntries([knee('express', index < 3 ? 2400 : 1800), knee('fastify', 4000 + index * 50)], {
      engine: 'vegeta',
      machine,
    });
    for (const suites of [
      [{ suite: suiteNames().bigger, tool: TOOLS.bigger, benches: [requests] }],
      [{ suite: kneeSuiteName(), tool: TOOLS.bigger, benches: knees }],
    ])
      data = appendRun(data, { commit, date: Date.UTC(2026, 0, 1 + index), suites }).data;
  }
  return data;
}

const trend = siteOverHistory(() => serializeBenchmarkData(history()), { skip });

test('the knee rate is a trend chart of its own group, a line per server over the commits', { skip }, async (t) => {
  const page = await openPage(t, trend.browser, trend.site.url);
  await waitForCharts(page);
  await drawAll(page);
  assert.deepEqual(await page.locator('section.suite h2').allTextContents(), [
    'perfgate throughput · 1 chart',
    'perfgate knee · 1 chart',
  ]);
  const charts = await chartsOnPage(page);
  assert.deepEqual(datasetSummary(charts, 'json · knee rate'), [`express:${COMMITS}`, `fastify:${COMMITS}`]);
  assert.deepEqual(datasetSummary(charts, 'express · json c=100 · req/s'), [`express:${COMMITS}`]);
  await page.locator('section.suite', { hasText: 'perfgate knee' }).screenshot({ path: `${outputDir}site-knee.png` });
});

test("the variants view lists each server's knee rate as a row of its own", { skip }, async (t) => {
  const page = await openPage(t, trend.browser, `${trend.site.url}?view=variants`);
  await page.waitForSelector('#variant-table tbody tr');
  const rows = await page.locator('#variant-table tbody tr').allTextContents();
  const text = rows.join('\n');
  assert.doesNotMatch(text, /c=null|NaN|undefined/);
  assert.ok(rows.length >= 2, text);
  const headers = await page.locator('#variant-table thead th').allTextContents();
  assert.ok(headers.includes('knee rate (req/s)'), headers.join(', '));
  assert.ok(
    rows.some((row) => /^expressjson.*1,800/.test(row)),
    text,
  );
  await page.screenshot({ path: `${outputDir}site-knee-variants.png`, fullPage: true });
});
