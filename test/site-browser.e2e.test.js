// The trend site in Debian's chromium over perfgate's own history (the fixture): charts per
// suite, scenario and tier, filters in the URL, the tier curve, the variants table, the phone
// layout, and a clear message for broken or missing data. Screenshots go to test-output/.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startSiteServer } from '../bench/site/server.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { chartsOnPage, datasetSummary, drawAll, openPage, outputDir, waitForCharts } from './helpers/site-page.js';
import { fixturePath } from './fixtures/site/load.js';

const skip = chromiumMissing;
const sites = {};
let browser;

before(async () => {
  if (skip) return;
  const histories = {
    history: 'history-data.js.txt',
    malformed: 'malformed-data.js.txt',
    empty: 'empty-data.js.txt',
    missing: 'no-such-data.js',
  };
  for (const [name, file] of Object.entries(histories))
    sites[name] = await startSiteServer({ dataFiles: [fixturePath(file)] });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all(Object.values(sites).map((site) => site.close()));
});

const open = (t, url, options) => openPage(t, browser, url, options);

test('trend view: suite headings, a chart per scenario and tier, a line per variant; no marks unless asked', {
  skip,
}, async (t) => {
  const page = await open(t, sites.history.url);
  await waitForCharts(page);
  assert.deepEqual(await page.locator('section.suite h2').allTextContents(), [
    'perfgate throughput · 6 charts',
    'perfgate latency · 6 charts',
  ]);
  assert.equal(await page.title(), 'perfgate/perfgate · benchmarks');
  await page.screenshot({ path: `${outputDir}site-trend.png` });
  await drawAll(page);
  const charts = await chartsOnPage(page);
  assert.equal(charts.length, 12);
  assert.deepEqual(datasetSummary(charts, 'json c=100 · req/s'), ['express:4', 'fastify:3', 'node-http:4']);
  assert.deepEqual(datasetSummary(charts, 'proxy[delay=500ms,log=on] c=10 · p99 latency'), [
    'express:4',
    'fastify:3',
    'node-http:3',
  ]);
  assert.ok(
    charts.every((chart) => chart.yMin >= 0),
    'no negative axis for values that are never negative',
  );

  // The action's neighbour ratio, opt-in at its 200 % default: a 20 % drop is no mark; at 110 % it is.
  await page.check('#marks');
  assert.match(page.url(), /threshold=200%25/);
  await page.fill('#threshold', '110');
  await page.press('#threshold', 'Enter');
  await page.waitForFunction(() => location.search.includes('threshold=110'));
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'json c=100 · req/s'), [
    'express:4',
    'express marks:1',
    'fastify:3',
    'node-http:4',
  ]);
  assert.match(
    await page.locator('#listed tbody').textContent(),
    /express json c=100 - req\/s.*▲ over the 110 % alert threshold/,
  );
});

test('a point opens its commit', { skip }, async (t) => {
  const page = await open(t, sites.history.url);
  await waitForCharts(page);
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
  assert.deepEqual(await page.evaluate(() => window.opened), [
    'https://github.com/perfgate/perfgate/commit/a625406f6977d45c1391b078f4d3656e0b75bfcb',
  ]);
});

test('a filter click changes the charts and the URL, and the URL brings the view back', { skip }, async (t) => {
  const page = await open(t, sites.history.url);
  await waitForCharts(page);
  await page.click('fieldset[data-filter="variant"] button[data-value="fastify"]');
  assert.equal(new URL(page.url()).search, '?variant=express&variant=node-http');
  await waitForCharts(page);
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'json c=100 · req/s'), ['express:4', 'node-http:4']);

  await page.click('fieldset[data-filter="tier"] button[data-value="10"]');
  await page.click('fieldset[data-filter="tier"] button[data-value="1000"]');
  await page.click('fieldset[data-filter="suite"] button[data-value="perfgate latency"]');
  const shared = page.url();
  assert.match(shared, /\?suite=perfgate\+throughput&variant=express&variant=node-http&tier=100$/);

  const again = await open(t, shared);
  await waitForCharts(again);
  const charts = await chartsOnPage(again);
  assert.deepEqual(
    charts.map((chart) => chart.title),
    ['json c=100 · req/s', 'proxy[delay=500ms,log=on] c=100 · req/s'],
  );
  assert.equal(
    await again.getAttribute('fieldset[data-filter="variant"] button[data-value="fastify"]', 'aria-pressed'),
    'false',
  );
});

test('tier curve: req/s and errors per variant at the chosen commit, knees marked', { skip }, async (t) => {
  const page = await open(t, sites.history.url);
  await waitForCharts(page);
  await page.click('.tabs button[data-view="tiers"]');
  await page.waitForSelector('#tier-charts figure canvas');
  assert.equal(new URL(page.url()).search, '?view=tiers');
  const charts = await chartsOnPage(page);
  assert.deepEqual(datasetSummary(charts, 'json · tier curve'), [
    'express req/s:3',
    'express errors %:3',
    'fastify req/s:3',
    'fastify errors %:3',
    'node-http req/s:3',
    'node-http errors %:3',
  ]);
  assert.match(
    await page.locator('#tier-charts .knees').first().textContent(),
    /express: ★ knee at c=1000 \(req\/s 18.5 % below peak\)/,
  );
  await page.screenshot({ path: `${outputDir}site-tiers.png` });

  // The first commit had no fastify: choosing it changes the curve and the URL.
  await page.selectOption('#commit', '0');
  assert.match(page.url(), /commit=2f22765/);
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'json · tier curve'), [
    'express req/s:3',
    'express errors %:3',
    'node-http req/s:3',
    'node-http errors %:3',
  ]);
});

test('variants side by side in the dark: the metric chips choose the bars and the table columns', {
  skip,
}, async (t) => {
  const page = await open(t, `${sites.history.url}?view=variants&scenario=json`, { colorScheme: 'dark' });
  await page.waitForSelector('#variant-bars');
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'req/s by variant'), [
    'express:3',
    'fastify:3',
    'node-http:3',
  ]);
  const headers = () => page.locator('#variant-table thead th').allTextContents();
  assert.deepEqual(await headers(), ['variant', 'scenario', 'connections', 'req/s', 'p99 latency (ms)', 'vs best']);
  await page.click('fieldset[data-filter="metric"] button[data-value="peak RSS"]');
  await page.click('fieldset[data-filter="metric"] button[data-value="req/s"]');
  assert.deepEqual(await headers(), ['variant', 'scenario', 'connections', 'p99 latency (ms)', 'peak RSS (MB)']);
  assert.equal(await page.locator('#bars-title').textContent(), 'p99 latency by variant');
  await page.click('#variant-table th button[data-sort="p99 latency"]');
  assert.match(page.url(), /sort=p99\+latency|sort=p99%20latency/);
  const firstRow = await page.locator('#variant-table tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(firstRow.slice(0, 3), ['fastify', 'json', '10']);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(20, 23, 27)');
  await page.screenshot({ path: `${outputDir}site-variants-dark.png`, fullPage: true });
});

test('on a phone the page fits the screen width and the filters fold away', { skip }, async (t) => {
  const page = await open(t, sites.history.url, {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await waitForCharts(page);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
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
    empty: /No data yet: dev\/bench\/data\.js has no runs/,
    missing:
      /No data yet: dev\/bench\/data\.js was not found \(perfgate bench writes it locally; on gh-pages the benchmark workflow does, or give \?data=/,
  };
  for (const [name, message] of Object.entries(expected)) {
    const page = await open(t, sites[name].url, { expected404: name === 'missing' ? /data\.js$/ : undefined });
    await statusSays(page, message, name);
    assert.equal(await page.locator('#app').isHidden(), true);
    assert.equal(await page.locator('#download').isHidden(), true, 'no data, nothing to download');
    if (name === 'malformed') await page.screenshot({ path: `${outputDir}site-malformed.png` });
  }
  const foreign = await open(t, `${sites.history.url}?data=https://example.com/data.js`);
  await statusSays(foreign, /\?data=https:\/\/example\.com\/data\.js is not on this site/);
});

// The page first says "Loading…", then "Reading … (n MB)…" with the class "loading" while it
// parses; only the message after those is the one a reader is left with.
async function statusSays(page, message, name) {
  await page.waitForFunction(() => {
    const status = document.querySelector('#status');
    return !status.textContent.startsWith('Loading') && !status.classList.contains('loading');
  });
  assert.match(await page.locator('#status').textContent(), message, name);
}
