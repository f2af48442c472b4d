// The trend site as GitHub Pages serves it: a project's pages live under /<repository>/, and the
// publishers (bench-main's deploy step, the publish action) copy site/ to the pages branch's root
// beside github-action-benchmark's dev/bench/data.js. Every module the page loads, site/shared/
// included, must be reached inside that root. Screenshots go to test-output/.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { drawAll, openPage, outputDir, waitForCharts } from './helpers/site-page.js';
import { fixturePath } from './fixtures/site/load.js';

const skip = chromiumMissing;
const PREFIX = '/perfgate/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
let browser;
let server;
let url;

// A static host of `root` under PREFIX only, as GitHub Pages hosts a project's branch.
function pagesHost(root) {
  return createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const inside = path.startsWith(PREFIX) ? `.${path.slice(PREFIX.length - 1)}`.replace(/\/$/, '/index.html') : null;
    const file = inside && resolve(root, inside);
    if (!file?.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
}

before(async () => {
  if (skip) return;
  const pages = tempDir('perfgate-pages-');
  cpSync(join(PROJECT_ROOT, 'site'), pages, { recursive: true });
  mkdirSync(join(pages, 'dev/bench'), { recursive: true });
  cpSync(fixturePath('history-data.js.txt'), join(pages, 'dev/bench/data.js'));
  server = pagesHost(pages);
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${server.address().port}${PREFIX}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((closed) => (server ? server.close(closed) : closed()));
});

test('under /<repository>/ the page loads every module, site/shared/ too, and draws dev/bench/data.js', {
  skip,
}, async (t) => {
  // openPage fails the test on any request that fails (a module outside the root is a 404).
  const page = await openPage(t, browser, url);
  await waitForCharts(page);
  await drawAll(page);
  const outside = await page.evaluate(
    (prefix) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => !path.startsWith(prefix)),
    PREFIX,
  );
  assert.deepEqual(outside, [], 'every file the page loaded is inside the site root');
  const modules = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.includes('/shared/')),
  );
  assert.ok(modules.includes(`${PREFIX}shared/metrics.js`), `site/shared/ was loaded: ${modules.join(', ')}`);
  assert.ok((await page.locator('figure[data-chart] canvas').count()) > 0, 'the charts of dev/bench/data.js are drawn');
  await page.screenshot({ path: join(outputDir, 'site-pages-layout.png'), fullPage: false });
});
