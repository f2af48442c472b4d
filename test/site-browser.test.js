// The trend site in Debian's chromium over fixture data: the charts draw the expected
// series and points, filters land in the URL, and broken or missing data gives a message.
// Screenshots go to test-output/ for a person to look at.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSiteServer } from '../scripts/site.mjs';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { fixturePath } from './fixtures/site/load.js';

const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));
const skip = chromiumMissing;
const sites = {};
let browser;

before(async () => {
  if (skip) return;
  mkdirSync(outputDir, { recursive: true });
  const histories = {
    history: ['history-data.js.txt', 'history-verdicts.js.txt'],
    malformed: ['malformed-data.js.txt'],
    empty: ['empty-data.js.txt'],
    missing: ['no-such-data.js'],
  };
  for (const [name, [history, verdicts = 'no-such-verdicts.js']] of Object.entries(histories)) {
    sites[name] = await startSiteServer({ historyFile: fixturePath(history), verdictsFile: fixturePath(verdicts) });
  }
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all(Object.values(sites).map((site) => site.close()));
});

// A page that fails the test on any script error it reports, but those it is meant to show.
async function openPage(t, url, { expectedError, ...options } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => {
    if (!expectedError?.test(error.message)) errors.push(error.message);
  });
  t.after(() => assert.deepEqual(errors, [], 'errors in the page'));
  await page.goto(url);
  return page;
}

// What each drawn chart holds: its caption, and per dataset its label and non-null points.
function chartsOnPage(page) {
  return page.evaluate(() => [...document.querySelectorAll('figure[data-chart]')].filter((figure) => !figure.closest('[hidden]')).map((figure) => {
    const chart = window.Chart.getChart(figure.querySelector('canvas'));
    return {
      title: figure.querySelector('figcaption').textContent,
      datasets: chart.data.datasets.map((dataset) => ({
        label: dataset.label,
        points: dataset.data.filter((point) => point !== null && (typeof point !== 'object' || point.y !== null)).length,
      })),
    };
  }));
}

const datasetSummary = (charts, title) => charts.find((chart) => chart.title === title)?.datasets.map(({ label, points }) => `${label}:${points}`);

test('trend view: a chart per scenario, tier and metric, a line per variant, regressions marked', { skip }, async (t) => {
  const page = await openPage(t, sites.history.url);
  await page.waitForSelector('figure[data-chart] canvas');
  const charts = await chartsOnPage(page);
  assert.equal(charts.length, 12);
  assert.deepEqual(datasetSummary(charts, 'json c=100 · req/s'), ['express:4', 'express marks:1', 'fastify:3', 'node-http:4']);
  assert.deepEqual(datasetSummary(charts, 'proxy[delay=500ms,log=on] c=10 · p99 latency'), ['express:4', 'fastify:3', 'node-http:3']);

  // As drawn: the express point of the 3rd commit is a red diamond (threshold + verdict).
  const marked = await page.evaluate(() => {
    const chart = window.Chart.getChart(document.querySelector('figure[data-chart="json c=100 · req/s"] canvas'));
    const marks = chart.data.datasets[1];
    return chart.getDatasetMeta(1).data.map((element, index) => [marks.data[index].x, element.options.pointStyle, element.options.backgroundColor]);
  });
  assert.deepEqual(marked, [[2, 'rectRot', '#d62728']]);
  assert.equal(await page.locator('#marked tbody tr').count(), 5);
  assert.match(await page.locator('#marked tbody tr').nth(2).textContent(), /express json c=100 - req\/s.*verdict: regression/);
  await page.screenshot({ path: `${outputDir}site-trend.png` });
});

test('a point opens its commit', { skip }, async (t) => {
  const page = await openPage(t, sites.history.url);
  await page.waitForSelector('figure[data-chart] canvas');
  await page.evaluate(() => {
    window.opened = [];
    window.open = (url) => window.opened.push(url);
  });
  const canvas = page.locator('figure[data-chart="json c=100 · req/s"] canvas');
  const point = await canvas.evaluate((element) => {
    const { x, y } = window.Chart.getChart(element).getDatasetMeta(0).data[2];
    return { x, y };
  });
  await canvas.click({ position: point });
  // Chart.js handles pointer events in the next animation frame, not during the click.
  await page.waitForFunction(() => window.opened.length > 0, null, { timeout: 5000 }).catch(() => {});
  assert.deepEqual(await page.evaluate(() => window.opened), ['https://github.com/perfgate/perfgate/commit/a625406f6977d45c1391b078f4d3656e0b75bfcb']);
});

test('a filter click changes the charts and the URL, and the URL brings the view back', { skip }, async (t) => {
  const page = await openPage(t, sites.history.url);
  await page.waitForSelector('figure[data-chart] canvas');
  await page.click('fieldset[data-filter="variant"] button[data-value="fastify"]');
  assert.equal(new URL(page.url()).search, '?variant=express&variant=node-http');
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'json c=100 · req/s'), ['express:4', 'express marks:1', 'node-http:4']);

  await page.click('fieldset[data-filter="tier"] button[data-value="10"]');
  await page.click('fieldset[data-filter="tier"] button[data-value="1000"]');
  const shared = page.url();
  assert.match(shared, /\?variant=express&variant=node-http&tier=100$/);

  const again = await openPage(t, shared);
  await again.waitForSelector('figure[data-chart] canvas');
  const charts = await chartsOnPage(again);
  assert.deepEqual(charts.map((chart) => chart.title), [
    'json c=100 · req/s', 'proxy[delay=500ms,log=on] c=100 · req/s', 'json c=100 · p99 latency', 'proxy[delay=500ms,log=on] c=100 · p99 latency']);
  assert.equal(await again.getAttribute('fieldset[data-filter="variant"] button[data-value="fastify"]', 'aria-pressed'), 'false');
});

test('tier curve: req/s and errors per variant at the chosen commit, knees marked', { skip }, async (t) => {
  const page = await openPage(t, sites.history.url);
  await page.click('.tabs button[data-view="tiers"]');
  await page.waitForSelector('#tier-charts figure canvas');
  assert.equal(new URL(page.url()).search, '?view=tiers');
  const charts = await chartsOnPage(page);
  assert.deepEqual(datasetSummary(charts, 'json · tier curve'),
    ['express req/s:3', 'express errors %:3', 'fastify req/s:3', 'fastify errors %:3', 'node-http req/s:3', 'node-http errors %:3']);
  assert.match(await page.locator('#tier-charts .knees').first().textContent(), /express: ★ knee at c=1000 \(req\/s 18.5 % below peak\)/);
  await page.screenshot({ path: `${outputDir}site-tiers.png` });

  // The first commit had no fastify: choosing it changes the curve and the URL.
  await page.selectOption('#commit', '0');
  assert.match(page.url(), /commit=2f22765/);
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'json · tier curve'),
    ['express req/s:3', 'express errors %:3', 'node-http req/s:3', 'node-http errors %:3']);
});

test('variants side by side in the dark: bars and a table sorted by a click', { skip }, async (t) => {
  const page = await openPage(t, `${sites.history.url}?view=variants&scenario=json`, { colorScheme: 'dark' });
  await page.waitForSelector('#variant-bars');
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'req/s by variant'), ['express:3', 'fastify:3', 'node-http:3']);
  await page.click('#variant-table th button[data-sort="p99 latency"]');
  assert.match(page.url(), /sort=p99\+latency|sort=p99%20latency/);
  const firstRow = await page.locator('#variant-table tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(firstRow.slice(0, 3), ['fastify', 'json', '10']);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(20, 23, 27)');
  await page.screenshot({ path: `${outputDir}site-variants-dark.png`, fullPage: true });
});

test('on a phone the page fits the screen width and the filters fold away', { skip }, async (t) => {
  const page = await openPage(t, sites.history.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.waitForSelector('figure[data-chart] canvas');
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth}px wide on a ${innerWidth}px screen`);
  await page.screenshot({ path: `${outputDir}site-phone.png` });
  // The filters are folded away and open with a tap.
  assert.equal(await page.isVisible('fieldset[data-filter="variant"]'), false);
  await page.tap('#filters summary');
  await page.tap('fieldset[data-filter="scenario"] button[data-value="json"]');
  assert.match(page.url(), /\?scenario=proxy/);
});

test('malformed, empty and missing data each give a clear message, never a blank page', { skip }, async (t) => {
  const expected = {
    malformed: /dev\/bench\/data\.js is malformed and cannot be read: SyntaxError/,
    empty: /No data yet: run npm run bench \(dev\/bench\/data\.js has no runs\)/,
    missing: /No data yet: run npm run bench \(dev\/bench\/data\.js was not found\)/,
  };
  for (const [name, message] of Object.entries(expected)) {
    // The broken data.js is a script error in the page: the one the message reports.
    const page = await openPage(t, sites[name].url, { expectedError: name === 'malformed' ? /Invalid or unexpected token/ : undefined });
    const status = page.locator('#status');
    await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('Loading'));
    assert.match(await status.textContent(), message, name);
    assert.equal(await page.locator('#app').isHidden(), true);
    if (name === 'malformed') await page.screenshot({ path: `${outputDir}site-malformed.png` });
  }
});
