// The relative trend (bench/comparison/trend/): which commit is the baseline, the ratio records and their
// github-action-benchmark entries, the baselines file, and chaining across a re-anchor. The duet
// itself is compare's (tested there); runTrend's steps are driven here with a stand-in comparison.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { validateSuite } from '../bench/config/schema.js';
import { syntheticData, syntheticSeries } from '../bench/history/detect/synthetic.js';
import { appendRun, emptyBenchmarkData, validateBenches } from '../bench/history/index.js';
import { JUDGED_METRICS, measuredIn } from '../bench/results/metrics.js';
import {
  addAnchor,
  chainOf,
  mergeBaselines,
  pinFirst,
  readBaselines,
  writeBaselines,
} from '../bench/comparison/trend/anchors.js';
import { selectBaseline } from '../bench/comparison/trend/baseline.js';
import { analyseHistory, evidenceMarkdown, hogCommand } from '../bench/comparison/trend/evidence.js';
import { planPinning } from '../bench/measurement/pinning.js';
import {
  chainRatios,
  directRatios,
  parseRange,
  rangeText,
  relativeMetric,
  relativeName,
  trendBenches,
} from '../bench/comparison/trend/ratios.js';
import { TREND_SUITES, trendSuiteNames } from '../bench/results/benchmark-action.js';
import { parseTrendArgs } from '../bench/cli/trend-command.js';
import { runTrend, trendSelection, trendSettings } from '../bench/comparison/trend/run-trend.js';
import { trendMarkdown } from '../bench/comparison/trend/write.js';
import { tempDir } from './helpers/harness.js';
import { git } from './helpers/servers-repo.js';

// main: c1 (tag v1.0.0) - c2 (tag v1.1.0) - c3 - c4 (HEAD); a branch off c3 has the newer v2.0.0.
function repository() {
  const repo = tempDir('perfgate-trend-repo-');
  git(repo, 'init', '-q', '-b', 'main');
  const commit = (message) => {
    writeFileSync(join(repo, 'CHANGES'), `${message}\n`, { flag: 'a' });
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', message);
    return git(repo, 'rev-parse', 'HEAD');
  };
  const shas = [commit('c1')];
  git(repo, 'tag', 'v1.0.0');
  git(repo, 'tag', 'nightly-1');
  shas.push(commit('c2'));
  git(repo, 'tag', '-a', '-m', 'release', 'v1.1.0');
  shas.push(commit('c3'));
  git(repo, 'switch', '-q', '-c', 'side');
  commit('side');
  git(repo, 'tag', 'v2.0.0');
  git(repo, 'switch', '-q', 'main');
  shas.push(commit('c4'));
  return { repo, shas };
}

describe('baseline selection', () => {
  const { repo, shas } = repository();

  test("the release tag: the nearest tag matching the pattern in HEAD's history, not a newer one elsewhere", () => {
    assert.deepEqual(selectBaseline(repo), {
      ref: 'v1.1.0',
      sha: shas[1],
      how: 'the last release tag matching "v*" (v1.1.0)',
    });
    assert.equal(selectBaseline(repo, { tag: 'nightly-*' }).sha, shas[0]);
  });

  test('a commit named in the config (sha, tag or branch)', () => {
    assert.equal(selectBaseline(repo, { commit: shas[2].slice(0, 10) }).sha, shas[2]);
    assert.equal(selectBaseline(repo, { commit: 'v1.0.0' }).sha, shas[0], 'an annotated or light tag names its commit');
  });

  test('no baseline: a clear error that says how to get one', () => {
    assert.throws(
      () => selectBaseline(repo, { tag: 'release-*' }),
      (error) =>
        error.code === 'PG_NO_BASELINE_TAG' &&
        /no tag matching "release-\*" is reachable from HEAD/.test(error.message) &&
        /trend\.baseline\.commit/.test(error.message) &&
        /fetch-depth: 0/.test(error.message),
    );
    assert.throws(
      () => selectBaseline(repo, { commit: 'no-such-ref' }),
      (error) => error.code === 'PG_UNKNOWN_BASELINE' && /"no-such-ref" is not a commit/.test(error.message),
    );
    const untagged = tempDir();
    git(untagged, 'init', '-q');
    git(untagged, 'commit', '-q', '--allow-empty', '-m', 'only');
    assert.throws(() => selectBaseline(untagged), { code: 'PG_NO_BASELINE_TAG' });
  });
});

// A comparison as run-comparison.js writes it, with the paired estimate per judged metric.
function comparisonOf(changes) {
  return {
    benchmarks: [
      {
        id: 'express json c=100',
        status: 'ok',
        rounds: 8,
        elapsedMs: 30_000,
        verdicts: Object.fromEntries(
          JUDGED_METRICS.map((metric) => [
            metric.name,
            { change: changes[metric.name], ci: [changes[metric.name] - 0.01, changes[metric.name] + 0.02] },
          ]),
        ),
      },
      { id: 'express hello c=10', status: 'failed', reason: 'the server did not start' },
    ],
  };
}

const SHA = (digit) => digit.repeat(40);

describe('the ratio record and its github-action-benchmark entry', () => {
  const ratios = directRatios(comparisonOf({ 'req/s': -0.03, 'CPU µs/request': 0.04, 'p99 latency': 0.1 }));

  test('per measured benchmark and judged metric: head / baseline with its interval', () => {
    assert.deepEqual(Object.keys(ratios).sort(), [
      'express json c=100 - CPU µs/request vs baseline',
      'express json c=100 - p99 latency vs baseline',
      'express json c=100 - req/s vs baseline',
    ]);
    const cpu = ratios[relativeName('express json c=100', 'CPU µs/request')];
    assert.equal(cpu.direction, 'smaller');
    assert.ok(Math.abs(cpu.ratio - 1.04) < 1e-12);
    assert.deepEqual(
      cpu.ci.map((each) => Math.round(each * 1000) / 1000),
      [1.03, 1.06],
    );
    assert.equal(relativeMetric('express json c=100 - CPU µs/request vs baseline'), 'CPU µs/request');
    assert.equal(relativeMetric('express json c=100 - CPU µs/request'), null);
  });

  test('one more bench per benchmark and metric, in %, the interval in range, valid for the action and the history', () => {
    const state = pinFirst({ ref: 'v1.0.0', sha: SHA('a'), how: 'test' });
    const benches = trendBenches(ratios, state);
    assert.deepEqual(
      benches.bigger.map((bench) => bench.name),
      ['express json c=100 - req/s vs baseline'],
    );
    const [requests] = benches.bigger;
    assert.equal(requests.unit, '%');
    assert.equal(requests.value, 97);
    assert.equal(requests.range, '95% CI 96.00 to 99.00');
    assert.deepEqual(parseRange(requests.range), [96, 99]);
    assert.match(requests.extra, /^baseline: v1\.0\.0 \(a{12}\)\nrelative to: v1\.0\.0 \(a{12}\)\nmeasured: 97\.00 %/);
    assert.deepEqual(validateBenches([...benches.bigger, ...benches.smaller]), []);
    const { data, added } = appendRun(emptyBenchmarkData(), {
      commit: { id: SHA('b'), message: 'm', timestamp: '2026-11-24T00:00:00Z', url: '' },
      date: 1,
      suites: [
        { suite: TREND_SUITES.bigger, tool: 'customBiggerIsBetter', benches: benches.bigger },
        { suite: TREND_SUITES.smaller, tool: 'customSmallerIsBetter', benches: benches.smaller },
      ],
    });
    assert.deepEqual(added, ['perfgate throughput vs baseline', 'perfgate latency vs baseline']);
    // A project's relative suites are named after it, beside its absolute ones ("shop-api throughput").
    assert.deepEqual(trendSuiteNames('shop-api'), {
      bigger: 'shop-api throughput vs baseline',
      smaller: 'shop-api latency vs baseline',
    });
    assert.deepEqual(Object.keys(data.entries[TREND_SUITES.smaller][0].benches[0]), [
      'name',
      'value',
      'range',
      'unit',
      'extra',
    ]);
  });
});

describe('chaining across a re-anchor', () => {
  const first = { ref: 'v1.0.0', sha: SHA('a'), how: 'test' };
  const second = { ref: 'v1.1.0', sha: SHA('b'), how: 'test' };
  const name = 'express json c=100 - CPU µs/request vs baseline';
  const state = addAnchor(pinFirst(first), second, { [name]: { ratio: 1.1, ci: [1.05, 1.2] } });

  test("a product of ratios whose interval combines every factor's, never narrower than one", () => {
    const chained = chainRatios([
      { ratio: 1.1, ci: [1.05, 1.2] },
      { ratio: 0.9, ci: [0.88, 0.93] },
    ]);
    assert.ok(Math.abs(chained.ratio - 0.99) < 1e-12);
    assert.ok(chained.ci[0] < 0.99 * (0.88 / 0.9) && chained.ci[0] < 0.99 * (1.05 / 1.1));
    assert.ok(chained.ci[1] > 0.99 * (1.2 / 1.1) && chained.ci[1] > 0.99 * (0.93 / 0.9));
    assert.deepEqual(chainRatios([{ ratio: 1.02, ci: [1.01, 1.03] }]), { ratio: 1.02, ci: [1.01, 1.03] });
  });

  test('a line measured against the new baseline is chained back to the first, each link shown', () => {
    assert.deepEqual(chainOf(state, name), {
      origin: state.anchors[0],
      links: [{ from: 'v1.0.0', to: 'v1.1.0', ratio: 1.1, ci: [1.05, 1.2] }],
    });
    const measured = {
      [name]: {
        id: 'express json c=100',
        metric: 'CPU µs/request',
        direction: 'smaller',
        ratio: 0.9,
        ci: [0.88, 0.93],
      },
    };
    const [bench] = trendBenches(measured, state).smaller;
    assert.equal(bench.value, 99);
    const [low, high] = parseRange(bench.range);
    assert.ok(low < 97 && high > 104, bench.range);
    assert.match(
      bench.extra,
      /baseline: v1\.1\.0 \(b{12}\)\nrelative to: v1\.0\.0 \(a{12}\)\nmeasured: 90\.00 % \(95% CI 88\.00 to 93\.00\) of v1\.1\.0\nlink v1\.0\.0 → v1\.1\.0: 110\.00 % \(95% CI 105\.00 to 120\.00\)$/,
    );
  });

  test('a line the link did not measure starts at the newer baseline', () => {
    const other = 'fastify json c=100 - CPU µs/request vs baseline';
    assert.deepEqual(chainOf(state, other), { origin: state.anchors[1], links: [] });
  });

  test("shards' baselines files merge into one: the same baselines, the newest link with every shard's lines", () => {
    const other = 'fastify json c=100 - CPU µs/request vs baseline';
    const shard = addAnchor(pinFirst(first), second, { [other]: { ratio: 0.97, ci: [0.95, 0.99] } });
    const merged = mergeBaselines([state, shard]);
    assert.deepEqual(Object.keys(merged.anchors[1].link.ratios).sort(), [name, other].sort());
    assert.equal(mergeBaselines([]), null);
    assert.deepEqual(mergeBaselines([pinFirst(first)]), pinFirst(first, new Date(pinFirst(first).anchors[0].pinnedAt)));
    assert.throws(() => mergeBaselines([state, pinFirst(first)]), { code: 'PG_BAD_BASELINES' });
  });

  test('the baselines file round-trips; a damaged one is a clear error', () => {
    const file = join(tempDir(), 'baselines.json');
    assert.equal(readBaselines(file), null, 'no file: nothing pinned yet');
    writeBaselines(file, state);
    assert.deepEqual(readBaselines(file), state);
    writeFileSync(file, '{"format":"perfgate-baselines","version":1,"anchors":[{"ref":"v1","sha":"xyz"}]}');
    assert.throws(
      () => readBaselines(file),
      (error) => error.code === 'PG_BAD_BASELINES' && /sha/.test(error.message),
    );
    writeFileSync(file, 'not json');
    assert.throws(() => readBaselines(file), { code: 'PG_BAD_BASELINES' });
  });
});

describe('runTrend: pin, measure, re-anchor, chain', () => {
  const config = {
    name: 'test',
    variants: ['express', 'fastify'],
    scenarios: ['json'],
    connections: [100],
    options: {},
    trend: { benchmarks: ['express json'] },
  };
  // The stand-in comparison: CPU per request of head / base by commit, read from `levels`.
  const levels = new Map();
  const compare = ({ base, head, select }) => {
    const change = levels.get(head.sha) / levels.get(base.sha) - 1;
    assert.ok(select({ id: 'express json c=100', variant: 'express', scenario: 'json' }));
    assert.ok(!select({ id: 'fastify json c=100', variant: 'fastify', scenario: 'json' }));
    return comparisonOf({ 'req/s': -change, 'CPU µs/request': change, 'p99 latency': change });
  };

  test('the first run pins the release tag; a new tag only adds a notice; --reanchor links it; the line stays continuous', async () => {
    const { repo, shas } = repository();
    const file = join(tempDir(), 'baselines.json');
    for (const [index, level] of [1, 1.1, 1.2, 1.3].entries()) levels.set(shas[index], level);
    const trend = (extra = {}) => runTrend({ repo, config, baselinesFile: file, compare, ...extra });
    const cpu = (run) => trendBenches(run.ratios, run.state).smaller.find((bench) => /CPU/.test(bench.name)).value;

    const first = await trend();
    assert.equal(first.kind, 'trend');
    assert.equal(first.baseline.ref, 'v1.1.0');
    assert.match(first.notices[0], /^pinned the baseline v1\.1\.0/);
    assert.equal(readBaselines(file).anchors.length, 1);
    assert.equal(cpu(first), 118.18, 'c4 (1.3) against v1.1.0 (1.1)');

    git(repo, 'tag', 'v1.2.0', shas[2]);
    const afterTag = await trend();
    assert.equal(afterTag.baseline.ref, 'v1.1.0', 'a new tag never moves the baseline by itself');
    assert.match(afterTag.notices.join('\n'), /now v1\.2\.0 .* stays pinned to v1\.1\.0 .* --reanchor/);

    const reanchor = await trend({ reanchor: true });
    assert.equal(reanchor.kind, 'reanchor');
    const link = readBaselines(file).anchors[1].link;
    assert.equal(link.from, shas[1]);
    assert.ok(Math.abs(link.ratios['express json c=100 - CPU µs/request vs baseline'].ratio - 1.2 / 1.1) < 1e-12);
    assert.match(trendMarkdown(reanchor, null), /re-anchor: v1\.2\.0 .* measured against v1\.1\.0/);

    const chained = await trend();
    assert.equal(chained.baseline.ref, 'v1.2.0');
    assert.equal(cpu(chained), 118.18, 'the same commit reads the same level after the re-anchor');
    assert.match(
      trendMarkdown(chained, trendBenches(chained.ratios, chained.state)),
      /re-anchored .*, linked to v1\.1\.0 on 3 lines/,
    );

    const again = await trend({ reanchor: true });
    assert.equal(again.kind, 'pinned', 'nothing to re-anchor');
  });

  test("a re-anchor's link gets twice a point's rounds (and budget), or --reanchor-rounds", async () => {
    const { repo, shas } = repository();
    for (const [index, level] of [1, 1.1, 1.2, 1.3].entries()) levels.set(shas[index], level);
    const measured = [];
    const recording = (request) => {
      measured.push({ head: request.head.ref, ...request.settings });
      return compare(request);
    };
    const file = join(tempDir(), 'baselines.json');
    // As `perfgate trend` turns its command line into the request (bench/cli/trend-command.js).
    const trend = (values) => {
      const { settings, reanchor, reanchorRounds, baseline } = parseTrendArgs({ rounds: 8, ...values });
      const request = { settings: trendSettings(settings), reanchor, reanchorRounds, baseline };
      return runTrend({ repo, config, baselinesFile: file, compare: recording, ...request });
    };
    await trend({ baseline: 'v1.0.0' }); // pins v1.0.0, measures HEAD against it
    await trend({ reanchor: true }); // v1.1.0, the last release, against v1.0.0
    await trend({ reanchor: true, baseline: 'HEAD~1', 'reanchor-rounds': 20 });
    const point = trendSettings({ rounds: 8 });
    assert.deepEqual(
      measured.map((each) => [each.head, each.minRounds, each.maxRounds, each.budgetSeconds]),
      [
        ['HEAD', 8, 8, point.budgetSeconds],
        ['v1.1.0', 16, 16, 2 * point.budgetSeconds],
        ['HEAD~1', 20, 20, Math.ceil(2.5 * point.budgetSeconds)],
      ],
    );
  });

  test('HEAD at the baseline: 100 % without a measurement', async () => {
    const { repo } = repository();
    const run = await runTrend({
      repo,
      config,
      baseline: 'HEAD',
      baselinesFile: join(tempDir(), 'baselines.json'),
      compare: () => assert.fail('nothing to measure'),
    });
    const benches = trendBenches(run.ratios, run.state);
    assert.deepEqual(
      [...benches.bigger, ...benches.smaller].map((bench) => [bench.value, bench.range]),
      // The runtime agent's metrics only in a run with --runtime-metrics.
      JUDGED_METRICS.filter(measuredIn(config)).map(() => [100, '95% CI 100.00 to 100.00']),
    );
  });

  test('before the first release: a skip when asked, else the clear error; a pinned trend goes on without a tag', async () => {
    const untagged = tempDir();
    git(untagged, 'init', '-q', '-b', 'main');
    git(untagged, 'commit', '-q', '--allow-empty', '-m', 'one');
    const first = git(untagged, 'rev-parse', 'HEAD');
    git(untagged, 'commit', '-q', '--allow-empty', '-m', 'two');
    const file = join(tempDir(), 'baselines.json');
    const trend = (extra) => runTrend({ repo: untagged, config, baselinesFile: file, compare, ...extra });
    const skipped = await trend({ skipWithoutBaseline: true });
    assert.equal(skipped.kind, 'skipped');
    assert.match(skipped.notices[0], /^no relative trend yet: no tag matching "v\*"/);
    assert.equal(readBaselines(file), null, 'nothing pinned');
    await assert.rejects(trend({}), { code: 'PG_NO_BASELINE_TAG' });
    writeBaselines(file, pinFirst({ ref: 'first', sha: first, how: 'test' }));
    levels.set(first, 1);
    levels.set(git(untagged, 'rev-parse', 'HEAD'), 1.05);
    const pinned = await trend({ skipWithoutBaseline: true });
    assert.equal(pinned.kind, 'trend');
    assert.equal(pinned.baseline.ref, 'first');
    await assert.rejects(
      trend({ reanchor: true }),
      { code: 'PG_NO_BASELINE_TAG' },
      'a re-anchor needs a baseline to move to',
    );
  });

  test('trend.benchmarks selects the lines; a key that names no benchmark is refused', () => {
    assert.ok(trendSelection({ ...config, trend: undefined })({ id: 'fastify json c=100' }));
    assert.throws(
      () => trendSelection({ ...config, trend: { benchmarks: ['koa json'] } }),
      (error) => error.code === 'PG_BAD_CONFIG' && /"koa json" names no benchmark/.test(error.message),
    );
  });

  test('the suite schema takes trend.baseline as a tag pattern or a commit, and nothing else', () => {
    const names = { variantNames: ['express'], scenarioNames: ['json'] };
    const suite = { variants: ['express'], scenarios: ['json'], connections: [10] };
    assert.deepEqual(validateSuite({ ...suite, trend: { baseline: { tag: 'v*' } } }, names), []);
    assert.deepEqual(
      validateSuite({ ...suite, trend: { baseline: { commit: 'abc' }, benchmarks: ['json'] } }, names),
      [],
    );
    assert.notDeepEqual(validateSuite({ ...suite, trend: { baseline: { tag: 'v*', commit: 'abc' } } }, names), []);
    assert.notDeepEqual(validateSuite({ ...suite, trend: { base: 'v1' } }, names), []);
  });
});

describe('the evidence analysis of scripts/measure-trend.mjs', () => {
  test('steps found within a commit, points elsewhere counted as false, spread against interval width', () => {
    const id = 'node-http json c=10';
    const series = (seed, mean, cv) =>
      syntheticSeries({ length: 40, mean, cv, steps: [{ at: 14, factor: 1.1 }], seed });
    const data = syntheticData({
      'perfgate throughput': { tool: 'customBiggerIsBetter', benches: { [`${id} - req/s`]: series(1, 1000, 0.005) } },
      'perfgate latency': {
        tool: 'customSmallerIsBetter',
        benches: { [`${id} - CPU µs/request`]: series(2, 50, 0.005) },
      },
      [TREND_SUITES.bigger]: {
        tool: 'customBiggerIsBetter',
        benches: { [relativeName(id, 'req/s')]: series(3, 100, 0.002) },
      },
      [TREND_SUITES.smaller]: {
        tool: 'customSmallerIsBetter',
        benches: { [relativeName(id, 'CPU µs/request')]: series(4, 100, 0.002) },
      },
    });
    for (const suite of Object.values(TREND_SUITES))
      for (const run of data.entries[suite])
        run.benches[0].range = rangeText([(run.benches[0].value - 1) / 100, (run.benches[0].value + 1) / 100]);
    const rows = analyseHistory(data, { id, steps: [15], hogFrom: null });
    assert.deepEqual(
      rows.map((row) => [row.line, row.steps.map((step) => step.replace(/\d+\.\d %/, 'X')), row.falsePoints]),
      [
        [`${id} - CPU µs/request`, ['15: X'], []],
        [`${id} - CPU µs/request vs baseline`, ['15: X'], []],
        [`${id} - req/s`, ['15: X'], []],
        [`${id} - req/s vs baseline`, ['15: X'], []],
      ],
    );
    const [absolute, relative] = rows;
    assert.ok(absolute.spread > 0.01 && absolute.spread < 0.03, `2 x 1.96 x 0.5 %: ${absolute.spread}`);
    assert.ok(
      relative.width > 0.017 && relative.width < 0.021,
      `a 2-point wide range around 100-110: ${relative.width}`,
    );
    assert.match(
      evidenceMarkdown(rows, {
        commits: 40,
        steps: [{ at: 15, slowdown: 0.1 }],
        hogFrom: null,
        loopsAt: {},
        conditions: 'c',
      }),
      /\| node-http json c=10 - CPU µs\/request \| \d+\.\d\d % \| [12]\.\d\d % \| \d+\.\d\d \|/,
    );
  });
});

describe("the evidence's CPU hog", () => {
  test("goes on the server cores of the run's plan, not on a load worker's", () => {
    // 4 cores and 2 load workers: the servers run on 2 and 3 (a plan without the workers gives them 1-3).
    const plan = planPinning([0, 1, 2, 3], { loadWorkers: 2 });
    assert.deepEqual(hogCommand(plan).slice(0, 4), ['taskset', '-c', '2,3', process.execPath]);
    assert.equal(hogCommand(planPinning([0], {}))[0], process.execPath, 'one core: nothing to pin to');
  });
});
