// The trend site over an application's local history, as a newcomer opens it: the page is
// named after the project (no repository URL), a chart of the app's one server names it, and
// the first screen marks itself drawn, which a headless screenshot waits for.
import assert from 'node:assert/strict';
import test from 'node:test';
import { chromiumMissing } from './helpers/browser.js';
import { openPage, outputDir, siteOverHistory } from './helpers/site-page.js';

const skip = chromiumMissing;

const extra = (variant, scenario, reference = false) =>
  `variant: ${variant}\nscenario: ${scenario}\nconnections: 100\noptions: default${reference ? '\nreference: yes' : ''}\nsamples: 10\nruns: 1\nnode: v20.20.2`;
const entry = (id, date, value, metric = 'req/s', unit = 'req/s') => ({
  commit: { id, message: `commit ${id}`, timestamp: new Date(date).toISOString(), url: '' },
  date,
  tool: unit === 'req/s' ? 'customBiggerIsBetter' : 'customSmallerIsBetter',
  benches: [
    { name: `json-server list c=100 - ${metric}`, unit, value, extra: extra('json-server', 'list') },
    // The built-in reference measured beside the app, in the app's suite.
    { name: `node-http hello c=100 - ${metric}`, unit, value: value / 10, extra: extra('node-http', 'hello', true) },
  ],
});

const data = {
  lastUpdate: Date.UTC(2026, 10, 20),
  // The chart groups as bench names them after the project's name.
  entries: {
    'json-server throughput': [entry('a1', Date.UTC(2026, 10, 18), 1500), entry('b2', Date.UTC(2026, 10, 19), 1450)],
    'json-server latency': [
      entry('a1', Date.UTC(2026, 10, 18), 120, 'p99 latency', 'ms'),
      entry('b2', Date.UTC(2026, 10, 19), 130, 'p99 latency', 'ms'),
    ],
  },
};

const trend = siteOverHistory(() => `window.BENCHMARK_DATA = ${JSON.stringify(data)}`, { skip });

test("an app's local history: the project's name, its server in each chart's title, the reference marked, the first screen marked drawn", {
  skip,
}, async (t) => {
  const page = await openPage(t, trend.browser, trend.site.url);
  await page.waitForSelector('html[data-drawn]');
  assert.equal(await page.title(), 'json-server · benchmarks');
  assert.match(await page.locator('#title').textContent(), /^json-server benchmarks/);
  assert.deepEqual(await page.locator('#trend-charts figcaption').allTextContents(), [
    'json-server · list c=100 · req/s',
    'node-http (reference) · hello c=100 · req/s',
    'json-server · list c=100 · p99 latency',
    'node-http (reference) · hello c=100 · p99 latency',
  ]);
  await page.screenshot({ path: `${outputDir}site-app.png` });
});
