// A history in which a steady machine measured the first commits and a GitHub-hosted runner the
// later ones, in the same chart group: the site, in Debian's chromium, draws the hosted runs in a
// group of their own labelled "hosted runner" and never joins them into the steady machine's
// line. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import test from 'node:test';
import { syntheticData, syntheticSeries } from '../bench/history/detect/synthetic.js';
import { serializeBenchmarkData } from '../bench/history/format.js';
import { suiteNames } from '../bench/results/benchmark-action.js';
import { hostedSuiteName } from '../site/shared/runner.js';
import { chromiumMissing } from './helpers/browser.js';
import { chartsOnPage, drawAll, openPage, siteOverHistory, outputDir, waitForCharts } from './helpers/site-page.js';

const skip = chromiumMissing;
const SUITE = suiteNames('shop-api').bigger;
const HOSTED_SUITE = hostedSuiteName(SUITE);
const BENCH = 'express json c=100 - req/s';
const STEADY_RUNS = 20;
const HOSTED_RUNS = 10;

function history() {
  const steady = syntheticSeries({ length: STEADY_RUNS, mean: 10_000, cv: 0.02, seed: 3 });
  const hosted = syntheticSeries({ length: HOSTED_RUNS, mean: 6_000, cv: 0.1, seed: 4 });
  const data = syntheticData({
    [SUITE]: { tool: 'customBiggerIsBetter', benches: { [BENCH]: [...steady, ...hosted] } },
  });
  for (const [index, run] of data.entries[SUITE].entries()) {
    const runner = index < STEADY_RUNS ? [] : ['runner: github-hosted'];
    run.benches[0].extra = ['variant: express', 'scenario: json', 'connections: 100', ...runner].join('\n');
  }
  return data;
}

const trend = siteOverHistory(() => serializeBenchmarkData(history()), { skip });

test("a hosted runner's runs are a chart group of their own, labelled, never in the steady machine's line", {
  skip,
}, async (t) => {
  const page = await openPage(t, trend.browser, trend.site.url);
  await waitForCharts(page);
  const headings = await page.locator('section.suite h2').allTextContents();
  assert.ok(
    headings.some((heading) => heading.startsWith(`${HOSTED_SUITE}`)),
    headings.join('\n'),
  );
  await drawAll(page);
  const charts = await chartsOnPage(page);
  const points = (suite) =>
    charts
      .filter((chart) => chart.suite === suite)
      .flatMap((chart) => chart.datasets.filter((each) => each.label.startsWith('express')).map((each) => each.points));
  assert.deepEqual(points(SUITE), [STEADY_RUNS]);
  assert.deepEqual(points(HOSTED_SUITE), [HOSTED_RUNS]);
  await page.screenshot({ path: `${outputDir}site-hosted-runner.png`, fullPage: true });
});
