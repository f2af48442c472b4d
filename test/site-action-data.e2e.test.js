// The trend site in Debian's chromium as a github-action-benchmark user meets it: data.js files
// generated in every tool's naming style and unit (go, cargo, pytest, benchmark.js, Catch2, Julia,
// .NET, JMH, custom with numeric strings), re-runs, a step to find, several files by ?data=, a
// download, a large history, and the history a real `npm run bench` writes. No timing is asserted:
// the render times are printed for the record. Screenshots go to test-output/.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSiteServer } from '../bench/site/server.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { buildHistory, toDataScript, TOOL_SUITES } from './helpers/benchmark-history.js';
import { runBench, tempDir } from './helpers/harness.js';
import { chartsOnPage, datasetSummary, drawAll, openPage, outputDir, waitForCharts } from './helpers/site-page.js';

const skip = chromiumMissing;
const dir = tempDir('perfgate-site-');
const sites = {};
let browser;
let benchRun;

function writeHistory(name, history) {
  const file = join(dir, name, 'data.js');
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(file, toDataScript(history));
  return file;
}

// Every tool, 60 commits, every 10th run twice, all values 15 % worse from the 40th commit on.
const toolsHistory = buildHistory({
  tools: Object.keys(TOOL_SUITES),
  commits: 60,
  rerunEvery: 10,
  step: { at: 40, factor: 1.15 },
});

before(async () => {
  if (skip) return;
  sites.tools = await startSiteServer({ dataFiles: [writeHistory('tools', toolsHistory)] });
  sites.branches = await startSiteServer({
    dataFiles: [
      writeHistory('main', buildHistory({ tools: ['go', 'cargo'], commits: 20 })),
      writeHistory(
        'pr-7',
        buildHistory({ tools: ['go'], commits: 3, seed: 2, repoUrl: 'https://github.com/fork/fib-bench' }),
      ),
    ],
  });
  // ~2.5 MB and 1,800 runs, the size of the largest history the issue met; ~30 MB, as real histories reach.
  sites.large = await startSiteServer({
    dataFiles: [
      writeHistory(
        'large',
        buildHistory({ tools: ['go', 'cargo', 'benchmarkjs'], commits: 600, step: { at: 400, factor: 1.1 } }),
      ),
    ],
  });
  sites.huge = await startSiteServer({
    dataFiles: [writeHistory('huge', buildHistory({ tools: Object.keys(TOOL_SUITES), commits: 2400, rerunEvery: 25 }))],
  });
  // The perfgate history of a real run of the smallest suite.
  const history = join(dir, 'bench', 'history', 'data.js');
  benchRun = await runBench(['--suite', 'smoke', '--out', join(dir, 'bench'), '--history', history]);
  sites.bench = await startSiteServer({ dataFiles: [history] });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all(Object.values(sites).map((site) => site.close()));
  // 30 MB of generated history is not left behind.
  rmSync(dir, { recursive: true, force: true });
});

const open = (t, url, options) => openPage(t, browser, url, options);

test("every tool's data: a heading per suite in file order, a chart per bench, every unit, string values and re-runs plotted", {
  skip,
}, async (t) => {
  const page = await open(t, sites.tools.url);
  await waitForCharts(page);
  assert.equal(await page.title(), 'octo-org/fib-bench · benchmarks');
  assert.deepEqual(
    await page
      .locator('section.suite h2')
      .evaluateAll((headings) => headings.map((heading) => heading.firstChild.textContent)),
    Object.values(TOOL_SUITES).map((tool) => tool.suite),
  );
  // Only the charts near the screen are drawn at first.
  const first = await chartsOnPage(page);
  assert.equal(first.length, 16);
  assert.ok(first.filter((chart) => chart.drawn).length < 16, 'charts far below are drawn when scrolled to');
  await drawAll(page);
  const charts = await chartsOnPage(page);
  assert.ok(charts.every((chart) => chart.drawn && chart.yMin >= 0));
  assert.deepEqual(
    charts.filter((chart) => chart.suite === 'Go Benchmark').map((chart) => chart.title),
    [
      'BenchmarkFib10 - ns/op',
      'BenchmarkFib10 - B/op',
      'BenchmarkFib10 - allocs/op',
      'BenchmarkFib/my_tabled_benchmark_-_20',
    ],
  );
  // 60 commits and 6 re-runs: 66 points, from values written as strings too.
  assert.equal(
    datasetSummary(charts, 'My Custom Smaller Is Better Benchmark - Memory Used')[0],
    'My Custom Smaller Is Better Benchmark - Memory Used:66',
  );
  const ticks = await page
    .locator('figure[data-chart="bench_fib_10"] canvas')
    .evaluate((canvas) => window.Chart.getChart(canvas).scales.x.ticks.map((tick) => tick.label));
  assert.ok(
    ticks.filter(Boolean).every((label) => /^2025-\d\d-\d\d$/.test(label)),
    `dates on the x-axis: ${ticks}`,
  );
  await page.screenshot({ path: `${outputDir}site-action-tools.png` });
});

test('change points: the 15 % step is drawn with its means and listed, newest first', { skip }, async (t) => {
  const page = await open(t, sites.tools.url);
  await waitForCharts(page);
  const chart = page.locator('figure[data-chart="bench_fib_20"]');
  await chart.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const canvas = document.querySelector('figure[data-chart="bench_fib_20"] canvas');
    return window.Chart.getChart(canvas)?.data.datasets.some((dataset) => dataset.label.endsWith('change points'));
  });
  const drawn = await chart.locator('canvas').evaluate((canvas) => {
    const markers = window.Chart.getChart(canvas).data.datasets.find((dataset) =>
      dataset.label.endsWith('change points'),
    );
    return markers.data.map((point) => ({
      x: point.x,
      change: point.changePoint.change,
      colour: markers.pointBackgroundColor[markers.data.indexOf(point)],
    }));
  });
  // The step is at the 40th commit; cargo is smaller-is-better, so 15 % more is for the worse (red).
  const step = drawn.find((point) => point.x === 40);
  assert.ok(step, `a change point at commit 40: ${JSON.stringify(drawn)}`);
  assert.ok(Math.abs(step.change - 0.15) < 0.03);
  assert.equal(step.colour, '#d62728');
  await page.waitForFunction(() => !document.querySelector('#listed-status').textContent);
  const rows = await page.locator('#listed tbody tr').allTextContents();
  assert.ok(
    rows.some((row) => /Rust Benchmarkbench_fib_20.*\+1[4-6](\.\d)? %change point/.test(row)),
    rows.join('\n'),
  );
  await chart.screenshot({ path: `${outputDir}site-change-point.png` });

  // The same change points as `npm run detect` finds in the file. detect refuses values written
  // as strings, so it reads a copy with those as numbers (the numbers the page plots).
  const numeric = structuredClone(toolsHistory);
  for (const run of Object.values(numeric.entries).flat())
    for (const bench of run.benches) bench.value = Number(bench.value);
  const file = writeHistory('tools-numeric', numeric);
  const json = join(dir, 'tools-numeric', 'change-points.json');
  const detect = spawnSync(process.execPath, ['scripts/detect.mjs', '--data', file, '--json', json], {
    encoding: 'utf8',
  });
  assert.equal(detect.status, 0, detect.stderr);
  const detected = JSON.parse(readFileSync(json, 'utf8')).changePoints.map(
    (point) => `${point.commit.id.slice(0, 7)} ${point.suite} ${point.bench}`,
  );
  const listed = await page
    .locator('#listed tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [0, 2, 3].map((cell) => tr.cells[cell].textContent).join(' ')));
  assert.ok(detected.length >= 16, detected.join('\n'));
  assert.deepEqual(listed.sort(), detected.sort());
});

test('tooltip: date, commit message, author and committer, range and extra, all inside the window', {
  skip,
}, async (t) => {
  const page = await open(t, sites.tools.url, { viewport: { width: 900, height: 700 } });
  await waitForCharts(page);
  const canvas = page.locator('figure[data-chart="BenchmarkFib10 - ns/op"] canvas');
  // The last point, at the right edge of the chart: the tooltip must flip to stay on screen.
  const point = await canvas.evaluate((element) => {
    const { x, y } = window.Chart.getChart(element).getDatasetMeta(0).data.at(-1);
    return { x, y };
  });
  await canvas.hover({ position: point });
  const tooltip = page.locator('#tooltip');
  await tooltip.waitFor({ state: 'visible' });
  const text = await tooltip.innerText();
  assert.match(text, /^[0-9a-f]{7} · run 2025-03-0\d \d\d:00 UTC/);
  assert.match(text, /Speed up fib, part 59\n+A longer body/);
  assert.match(text, /by @ada, committed by @web-flow · committed 2025-03-0\d/);
  assert.match(text, /BenchmarkFib10 - ns\/op: [\d,.]+ ns\/op/);
  assert.match(text, /5000000 times\n8 procs/);
  const box = await tooltip.boundingBox();
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= 900 && box.y + box.height <= 700,
    `tooltip at ${JSON.stringify(box)}`,
  );
  await page.screenshot({ path: `${outputDir}site-tooltip.png` });

  const range = page.locator('figure[data-chart="bench_fib_10"] canvas');
  await range.scrollIntoViewIfNeeded();
  await page.waitForFunction(() =>
    window.Chart.getChart(document.querySelector('figure[data-chart="bench_fib_10"] canvas')),
  );
  const first = await range.evaluate((element) => {
    const { x, y } = window.Chart.getChart(element).getDatasetMeta(0).data[0];
    return { x, y };
  });
  await range.hover({ position: first });
  await page.waitForFunction(() => document.querySelector('#tooltip').textContent.includes('(± 24)'));
});

test('suite filter and search narrow the charts and travel in the URL', { skip }, async (t) => {
  const page = await open(t, sites.tools.url);
  await waitForCharts(page);
  await page.fill('#search', 'fib 20');
  await page.waitForFunction(() => location.search.includes('q=fib+20'));
  assert.deepEqual(
    (await chartsOnPage(page)).map((chart) => chart.title),
    ['BenchmarkFib/my_tabled_benchmark_-_20', 'bench_fib_20', 'Fibonacci 20', 'fib/20', 'Sample.Benchmarks.Fib20'],
  );
  await page.click('fieldset[data-filter="suite"] button[data-value="Go Benchmark"]');
  const shared = page.url();
  const again = await open(t, shared);
  await waitForCharts(again);
  assert.deepEqual(
    (await chartsOnPage(again)).map((chart) => chart.title),
    ['bench_fib_20', 'Fibonacci 20', 'fib/20', 'Sample.Benchmarks.Fib20'],
  );
  assert.equal(await again.inputValue('#search'), 'fib 20');
  assert.equal(
    await again.isHidden('.tabs button[data-view="variants"]'),
    true,
    'no variants in these names: no variants view',
  );
});

test('several data files by ?data=: their suites side by side, named by file; the download is the data shown', {
  skip,
}, async (t) => {
  const { url, pageUrl } = sites.branches;
  assert.match(pageUrl, /\?data=data%2Fmain%2Fdata\.js&data=data%2Fpr-7%2Fdata\.js$/);
  const page = await open(t, pageUrl);
  await waitForCharts(page);
  assert.deepEqual(
    await page.locator('section.suite').evaluateAll((sections) => sections.map((section) => section.dataset.suite)),
    ['main · Go Benchmark', 'main · Rust Benchmark', 'pr-7 · Go Benchmark'],
  );
  assert.match(await page.locator('#source').textContent(), /from data\/main\/data\.js, data\/pr-7\/data\.js/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.equal(download.suggestedFilename(), 'benchmark_data.json');
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(Object.keys(saved), ['data/main/data.js', 'data/pr-7/data.js']);
  assert.equal(saved['data/pr-7/data.js'].repoUrl, 'https://github.com/fork/fib-bench');
  // The view keeps ?data= when filters change.
  await page.click('fieldset[data-filter="suite"] button[data-value="main · Rust Benchmark"]');
  assert.match(page.url(), /\?data=data%2Fmain%2Fdata\.js&data=data%2Fpr-7%2Fdata\.js&suite=/);
  assert.ok(url);
});

// Loads a page and returns when its first chart was drawn and how long the page went without
// a frame (the tab frozen), both in ms from navigation start.
async function renderTimes(t, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.longestFrameGap = 0;
    let last = performance.now();
    const tick = (now) => {
      window.longestFrameGap = Math.max(window.longestFrameGap, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const statuses = [];
  page.on('console', () => {});
  await page.goto(url);
  // What the page says while a big file loads.
  for (let index = 0; index < 3; index += 1) {
    statuses.push(await page.locator('#status').textContent());
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => performance.getEntriesByName('perfgate:first-chart').length > 0, null, {
    timeout: 120_000,
  });
  const times = await page.evaluate(() => ({
    firstChart: Math.round(performance.getEntriesByName('perfgate:first-chart')[0].startTime),
    longestFrameGap: Math.round(window.longestFrameGap),
  }));
  return { page, statuses, ...times };
}

test('a large history opens (render times printed, not asserted: the machine is shared)', { skip }, async (t) => {
  const large = await renderTimes(t, sites.large.url);
  t.diagnostic(
    `2.5 MB / 1,800 runs: first chart at ${large.firstChart} ms, longest frame gap ${large.longestFrameGap} ms`,
  );
  assert.equal((await chartsOnPage(large.page)).length, 8);
  const huge = await renderTimes(t, sites.huge.url);
  t.diagnostic(
    `30 MB / ${2400 * 10 + 960} runs: first chart at ${huge.firstChart} ms, longest frame gap ${huge.longestFrameGap} ms; status while loading: ${huge.statuses.join(' | ')}`,
  );
  assert.ok(
    huge.statuses.some((status) => /^(Loading|Reading) dev\/bench\/data\.js/.test(status)),
    huge.statuses.join(' | '),
  );
  await huge.page.screenshot({ path: `${outputDir}site-30mb.png` });
});

test("the history of a real npm run bench: perfgate's views from the run just made", { skip }, async (t) => {
  assert.equal(benchRun.code, 0, benchRun.stderr);
  const page = await open(t, sites.bench.url);
  await waitForCharts(page);
  const charts = await chartsOnPage(page);
  assert.deepEqual(
    charts.map((chart) => `${chart.suite}: ${chart.title}`),
    [
      // One server's line: its chart names it.
      'perfgate throughput: node-http · hello c=4 · req/s',
      'perfgate throughput: node-http · json c=4 · req/s',
      'perfgate latency: node-http · hello c=4 · p99 latency',
      'perfgate latency: node-http · json c=4 · p99 latency',
    ],
  );
  assert.deepEqual(datasetSummary(charts, 'node-http · hello c=4 · req/s'), ['node-http:1']);
  await page.screenshot({ path: `${outputDir}site-real-bench.png` });
  await page.click('.tabs button[data-view="variants"]');
  const rows = await page.locator('#variant-table tbody tr').evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.cells]
        .slice(0, 3)
        .map((cell) => cell.textContent)
        .join(' '),
    ),
  );
  assert.deepEqual(rows, ['node-http hello 4', 'node-http json 4']);
});
