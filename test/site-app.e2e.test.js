// The trend site over an application's local history, as a newcomer opens it: the page is
// named after the project (no repository URL), a chart of the app's one server names it, and
// the first screen marks itself drawn, which a headless screenshot waits for.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { after, before } from 'node:test';
import { startSiteServer } from '../bench/site/server.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { tempDir } from './helpers/harness.js';
import { openPage, outputDir } from './helpers/site-page.js';

const skip = chromiumMissing;
let site;
let browser;

const extra = (variant, scenario, reference = false) =>
  `variant: ${variant}\nscenario: ${scenario}\nconnections: 100\noptions: default${reference ? '\nreference: yes' : ''}\nsamples: 10\nruns: 1\nnode: v20.20.2`;
const entry = (id, date, value) => ({
  commit: { id, message: `commit ${id}`, timestamp: new Date(date).toISOString(), url: '' },
  date,
  tool: 'customBiggerIsBetter',
  benches: [
    { name: 'json-server list c=100 - req/s', unit: 'req/s', value, extra: extra('json-server', 'list') },
    // The built-in reference measured beside the app, in the app's suite.
    { name: 'node-http hello c=100 - req/s', unit: 'req/s', value: 9000, extra: extra('node-http', 'hello', true) },
  ],
});

before(async () => {
  if (skip) return;
  const file = join(tempDir(), 'data.js');
  const data = {
    lastUpdate: Date.UTC(2026, 10, 20),
    entries: { 'json-server': [entry('a1', Date.UTC(2026, 10, 18), 1500), entry('b2', Date.UTC(2026, 10, 19), 1450)] },
  };
  writeFileSync(file, `window.BENCHMARK_DATA = ${JSON.stringify(data)}`);
  site = await startSiteServer({ dataFiles: [file] });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test("an app's local history: the project's name, its server in each chart's title, the reference marked, the first screen marked drawn", {
  skip,
}, async (t) => {
  const page = await openPage(t, browser, site.url);
  await page.waitForSelector('html[data-drawn]');
  assert.equal(await page.title(), 'json-server · benchmarks');
  assert.match(await page.locator('#title').textContent(), /^json-server benchmarks/);
  assert.deepEqual(await page.locator('#trend-charts figcaption').allTextContents(), [
    'json-server · list c=100 · req/s',
    'node-http (reference) · hello c=100 · req/s',
  ]);
  await page.screenshot({ path: `${outputDir}site-app.png` });
});
