// The trend site over a history of runs on several runtimes, in Debian's chromium: a runtime
// filter, a line per variant and runtime in each chart, and a runtime column in the variants
// table (runtimes side by side). Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { after, before } from 'node:test';
import { startSiteServer } from '../bench/site/server.js';
import { commitFor, toDataScript } from './helpers/benchmark-history.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { chartsOnPage, datasetSummary, drawAll, openPage, outputDir, waitForCharts } from './helpers/site-page.js';

const skip = chromiumMissing;
const RUNTIMES = { system: 'node 20.20.2', 'node@24': 'node 24.21.0' };

// Two commits of express and node-http on hello c=100, each on system and on node@24, named and
// described as perfgate's github-action-benchmark files name them (bench/results/benchmark-action.js).
function history() {
  const runs = [0, 1].map((index) => ({
    commit: commitFor(index, { repoUrl: 'https://github.com/perfgate/perfgate' }),
    date: Date.UTC(2026, 10, 1 + index),
    tool: 'customBiggerIsBetter',
    benches: ['express', 'node-http'].flatMap((variant, v) =>
      Object.entries(RUNTIMES).map(([runtime, version], r) => ({
        name: `${variant} hello${runtime === 'system' ? '' : `[runtime=${runtime}]`} c=100 - req/s`,
        unit: 'req/s',
        value: 1000 * (1 + v) * (1 + 2 * r) + index,
        extra: `variant: ${variant}\nscenario: hello\nconnections: 100\noptions: default\nruntime: ${runtime}\nruntime version: ${version}`,
      })),
    ),
  }));
  return {
    lastUpdate: Date.UTC(2026, 10, 3),
    repoUrl: 'https://github.com/perfgate/perfgate',
    entries: { 'perfgate throughput': runs },
  };
}

let dir;
let site;
let browser;
before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'perfgate-site-runtimes-'));
  writeFileSync(join(dir, 'data.js'), toDataScript(history()));
  site = await startSiteServer({ dataFiles: [join(dir, 'data.js')] });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a runtime filter, and a line per variant and runtime', { skip }, async (t) => {
  const page = await openPage(t, browser, site.url);
  await waitForCharts(page);
  const chips = page.locator('fieldset[data-filter="runtime"] button.chip');
  assert.deepEqual(await chips.allTextContents(), ['node@24', 'system']);
  await drawAll(page);
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'hello c=100 · req/s'), [
    'express:2',
    'express on node@24:2',
    'node-http:2',
    'node-http on node@24:2',
  ]);
  await page.screenshot({ path: `${outputDir}site-runtimes.png` });

  await page.click('fieldset[data-filter="runtime"] button.chip[data-value="system"]');
  await page.waitForFunction(() => location.search.includes('runtime=node%4024'));
  await drawAll(page);
  assert.deepEqual(datasetSummary(await chartsOnPage(page), 'hello c=100 · req/s'), [
    'express on node@24:2',
    'node-http on node@24:2',
  ]);
});

test('the variants table puts the runtimes side by side', { skip }, async (t) => {
  const page = await openPage(t, browser, `${site.url}?view=variants`);
  await page.waitForSelector('#variant-table tbody tr');
  const headers = (await page.locator('#variant-table thead th').allTextContents()).map((text) => text.trim());
  assert.deepEqual(
    headers.slice(0, 4).map((text) => text.replace(/[▲▼↕\s]+$/u, '')),
    ['variant', 'runtime', 'scenario', 'connections'],
  );
  const rows = await page
    .locator('#variant-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent.trim())),
    );
  assert.deepEqual(rows, [
    ['express', 'node@24'],
    ['express', 'system'],
    ['node-http', 'node@24'],
    ['node-http', 'system'],
  ]);
  await page.screenshot({ path: `${outputDir}site-runtimes-variants.png`, fullPage: true });
});
