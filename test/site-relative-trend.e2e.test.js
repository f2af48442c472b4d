// The relative trend on the trend site, in Debian's chromium: a history with an absolute CPU
// line (8 % run-to-run noise) and its relative line ("... vs baseline", 0.8 % noise, its 95 %
// interval in range) that both step 5 % for the worse at the 40th commit. The relative line gets
// its band and the baseline's level, the first screen explains the baseline, and the change point
// of the relative line is found by the page and by `npm run detect` alike. Screenshots go to test-output/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticData, syntheticSeries } from '../bench/history/detect/synthetic.js';
import { serializeBenchmarkData } from '../bench/history/format.js';
import { suiteNames, trendSuiteNames } from '../bench/results/benchmark-action.js';
import { rangeText } from '../site/shared/relative.js';
import { chromiumMissing } from './helpers/browser.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { openPage, siteOverHistory, outputDir, waitForCharts } from './helpers/site-page.js';

const skip = chromiumMissing;
// A project's history: its relative suite named after it, as `perfgate trend` and publish name it.
const ABSOLUTE_SUITE = suiteNames('shop-api').smaller;
const RELATIVE_SUITE = trendSuiteNames('shop-api').smaller;
const RELATIVE = 'express json c=100 - CPU µs/request vs baseline';
const ABSOLUTE = 'express json c=100 - CPU µs/request';
const STEP = { at: 40, factor: 1.05 };

function history() {
  const relative = syntheticSeries({ length: 60, mean: 100, cv: 0.008, steps: [STEP], seed: 7 });
  const data = syntheticData({
    [ABSOLUTE_SUITE]: {
      tool: 'customSmallerIsBetter',
      benches: { [ABSOLUTE]: syntheticSeries({ length: 60, mean: 60, cv: 0.08, steps: [STEP], seed: 8 }) },
    },
    [RELATIVE_SUITE]: { tool: 'customSmallerIsBetter', benches: { [RELATIVE]: relative } },
  });
  for (const run of data.entries[ABSOLUTE_SUITE]) run.benches[0].unit = 'µs';
  for (const [index, run] of data.entries[RELATIVE_SUITE].entries()) {
    const bench = run.benches[0];
    bench.value = Math.round(bench.value * 100) / 100;
    bench.unit = '%';
    bench.range = rangeText([(relative[index] - 1.2) / 100, (relative[index] + 1.4) / 100]);
    bench.extra = `baseline: v1.1.0 (${'b'.repeat(12)})\nrelative to: v1.0.0 (${'a'.repeat(12)})\nmeasured: ${bench.value} % of v1.1.0`;
  }
  return data;
}

const dir = tempDir('perfgate-site-relative-');
const file = join(dir, 'data.js');
const trend = siteOverHistory(() => serializeBenchmarkData(history()), { skip, file });

test('the relative line: its interval as a band, the baseline explained first, its change point found', {
  skip,
}, async (t) => {
  const page = await openPage(t, trend.browser, trend.site.url);
  await waitForCharts(page);
  const note = page.locator('#baseline-note');
  assert.ok(await note.isVisible(), 'the first screen explains the baseline');
  assert.ok((await note.boundingBox()).y < 900, 'above the fold');
  const text = await note.textContent();
  assert.match(text, /pinned baseline v1\.1\.0 \(b{12}\)/);
  assert.match(text, /same time on the same cores/);
  assert.match(text, /chained back to the first baseline v1\.0\.0/);

  // The project's relative suite is shown under its own name.
  const headings = await page.locator('section.suite h2').allTextContents();
  assert.ok(
    headings.some((heading) => heading.startsWith(`${RELATIVE_SUITE} · `)),
    headings.join('\n'),
  );
  const card = page.locator(`figure[data-suite="${RELATIVE_SUITE}"]`);
  assert.equal(await card.count(), 1, 'the relative metric is shown without choosing it');
  await card.scrollIntoViewIfNeeded();
  await page.waitForFunction((suite) => {
    const canvas = document.querySelector(`figure[data-suite="${suite}"] canvas`);
    return window.Chart.getChart(canvas)?.data.datasets.some((dataset) => dataset.label.endsWith('change points'));
  }, RELATIVE_SUITE);
  const drawn = await card.locator('canvas').evaluate((canvas) => {
    const chart = window.Chart.getChart(canvas);
    const { bands, reference } = chart.options.plugins.intervalBands;
    const markers = chart.data.datasets.find((dataset) => dataset.label.endsWith('change points'));
    return {
      bands: bands.map((band) => band.points.length),
      firstBand: bands[0].points[0].band,
      reference,
      yMin: chart.scales.y.min,
      yTitle: chart.options.scales.y.title.text,
      steps: markers.data.map((point) => ({ x: point.x, change: point.changePoint.change })),
    };
  });
  assert.deepEqual(drawn.bands, [60], 'a band over every point');
  assert.equal(drawn.reference, 100);
  assert.ok(drawn.yMin > 50, `the axis fits the ratios (min ${drawn.yMin})`);
  assert.equal(drawn.yTitle, '% of the baseline');
  assert.ok(
    drawn.steps.some((step) => step.x === STEP.at && Math.abs(step.change - 0.05) < 0.02),
    JSON.stringify(drawn.steps),
  );
  await card.screenshot({ path: `${outputDir}site-relative-trend.png` });
  await page.screenshot({ path: `${outputDir}site-relative-first-screen.png` });

  // `npm run detect` finds the same step in the relative series, from the same file.
  await page.waitForFunction(() => !document.querySelector('#listed-status').textContent);
  const listed = await page.locator('#listed tbody tr').allTextContents();
  assert.ok(
    listed.some((row) => row.includes(RELATIVE)),
    listed.join('\n'),
  );
  const json = join(dir, 'change-points.json');
  const detect = spawnSync(process.execPath, ['scripts/detect.mjs', '--data', file, '--json', json], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  assert.equal(detect.status, 0, detect.stderr);
  const relativePoints = JSON.parse(readFileSync(json, 'utf8')).changePoints.filter(
    (point) => point.bench === RELATIVE,
  );
  assert.deepEqual(
    relativePoints.map((point) => [point.index, point.kind]),
    [[STEP.at, 'regression']],
  );
});
