// The trend site in Debian's chromium for the site's browser tests: pages that fail the test on
// any script error or failed request they are not meant to show, and what their charts hold.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSiteServer } from '../../bench/site/server.js';
import { launchChromium } from './browser.js';
import { tempDir } from './harness.js';

export const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));
mkdirSync(outputDir, { recursive: true });

// One trend site and one browser for a test file: before its tests, dataText() (data.js's text) is
// written to file (a fresh one unless given) and served; after them both are closed.
export function siteOverHistory(dataText, { skip, file } = {}) {
  const opened = {};
  before(async () => {
    if (skip) return;
    const path = file ?? join(tempDir('perfgate-site-'), 'data.js');
    writeFileSync(path, dataText());
    opened.site = await startSiteServer({ dataFiles: [path] });
    opened.browser = await launchChromium();
  });
  after(async () => {
    await opened.browser?.close();
    await opened.site?.close();
  });
  return opened;
}

// expectedError: a page error the test provokes; expected404: a request meant to fail.
export async function openPage(t, browser, url, { expectedError, expected404, ...options } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => {
    if (!expectedError?.test(error.message)) errors.push(error.message);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !expected404?.test(response.url()))
      errors.push(`${response.status()} ${response.url()}`);
  });
  t.after(() => assert.deepEqual(errors, [], 'errors in the page'));
  await page.goto(url);
  return page;
}

export const waitForCharts = (page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('figure[data-chart] canvas')].some((canvas) => window.Chart.getChart(canvas)),
  );

// Charts are drawn as they come near the screen: scroll each into view to have them all.
export async function drawAll(page) {
  await page.evaluate(async () => {
    for (const figure of document.querySelectorAll('#trend-charts figure[data-chart]')) {
      figure.scrollIntoView();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    window.scrollTo(0, 0);
  });
}

// What each drawn chart holds: its caption, suite and per dataset its label and non-null points.
export function chartsOnPage(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure[data-chart]')]
      .filter((figure) => !figure.closest('[hidden]'))
      .map((figure) => {
        const chart = window.Chart.getChart(figure.querySelector('canvas'));
        return {
          title: figure.querySelector('figcaption').textContent,
          suite: figure.dataset.suite,
          drawn: Boolean(chart),
          yMin: chart?.scales.y?.min,
          datasets: chart?.data.datasets.map((dataset) => ({
            label: dataset.label,
            points: dataset.data.filter((point) => point !== null && (typeof point !== 'object' || point.y !== null))
              .length,
          })),
        };
      }),
  );
}

export const datasetSummary = (charts, title) =>
  charts.find((chart) => chart.title === title)?.datasets?.map(({ label, points }) => `${label}:${points}`);
