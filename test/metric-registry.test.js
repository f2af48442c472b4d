// The metric registry (site/shared/metrics.js) is the single source of every reader: a fake
// judged metric, added before any reader loads, flows through compare's rounds, verdicts,
// flags, schema and report, perfgate.config's thresholds, the run table, the
// github-action-benchmark files, the PR comment and the trend site. No servers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { METRIC_REGISTRY } from '../site/shared/metrics.js';

const FAKE = {
  name: 'fake widgets',
  label: 'Widgets per request',
  unit: 'w',
  direction: 'smaller',
  fromRun: (run) => run.widgets,
  fromSummary: (summary) => summary.widgets,
  table: { title: 'Widgets', format: 'integer', after: 'Timeouts' },
  siteDefault: true,
  sampleKey: 'widgets',
  band: { threshold: 0.07, minimumEffect: 0.03 },
  bandFlags: { threshold: 'widget-threshold', minimumEffect: 'widget-min-effect' },
  bandConfig: { threshold: 'widgetThreshold', minimumEffect: 'widgetMinEffect' },
  decides: { rank: 0 },
  inEveryComparison: true,
};
// Before p99 latency: its place in the list is its place in every ordered output.
METRIC_REGISTRY.splice(
  METRIC_REGISTRY.findIndex((metric) => metric.name === 'p99 latency'),
  0,
  FAKE,
);

const { JUDGED_METRICS, DECIDING_METRICS, defaultBands } = await import('../bench/results/metrics.js');
const { compareInterleaved, roundSample } = await import('../bench/comparison/rounds.js');
const { comparisonSchema } = await import('../bench/comparison/schema.js');
const { comparisonMarkdown, verdictCells } = await import('../bench/comparison/report.js');
const { bandFlagProblems, COMPARISON_OPTIONS, comparisonRequest } = await import('../bench/cli/compare-command.js');
const { benchmarkSettings } = await import('../bench/project/config.js');
const { projectSchema } = await import('../bench/project/schema.js');
const { markdownTable } = await import('../bench/results/markdown.js');
const { toBenchmarkAction } = await import('../bench/results/benchmark-action.js');
const { renderComment } = await import('../bench/github/comment.js');
const { filterChoices } = await import('../site/lib/filters.js');
const { expandSpecs } = await import('../bench/measurement/specs.js');
const { default: Ajv } = await import('ajv');

const defaults = (options) => Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, spec.default]));

test('the fake metric is judged, decides first and has its default band', () => {
  assert.ok(JUDGED_METRICS.includes(FAKE));
  assert.equal(DECIDING_METRICS[0], FAKE);
  assert.deepEqual(defaultBands()[FAKE.name], FAKE.band);
});

test("compare's rounds keep its sample, judge it and let it call the verdict", async () => {
  const run = {
    requests: { mean: 1000 },
    latencyMs: { p50: 1, p99: 2 },
    server: { cpuMicrosPerRequest: 50 },
    widgets: 4,
    errors: 0,
    timeouts: 0,
    loadGenerator: { saturated: false },
  };
  assert.equal(roundSample(run).widgets, 4);
  // Everything the same on both sides but the widgets, which double on head.
  let round = 0;
  const measureRound = async () => {
    round += 1;
    const jitter = 1 + (round % 3) / 1000;
    const sample = (widgets) => ({ ...roundSample({ ...run, widgets: widgets * jitter }) });
    return { base: sample(4), head: sample(8) };
  };
  const result = await compareInterleaved({
    measureRound,
    thresholds: defaultBands(),
    budgetMs: 1e9,
    minRounds: 5,
    maxRounds: 20,
    now: () => round * 1000,
  });
  assert.equal(result.verdicts[FAKE.name].verdict, 'regression');
  assert.equal(result.verdict.calledBy, FAKE.name);
});

test("compare's flags and help set its band; perfgate.config's thresholds do the same", () => {
  assert.match(COMPARISON_OPTIONS['widget-threshold'].help, /fake widgets: the band: /);
  // A part the metric names no flag for (the no-change margin) keeps its default, derived from the band.
  assert.equal(COMPARISON_OPTIONS['widget-no-change-margin'], undefined);
  assert.equal(COMPARISON_OPTIONS['widget-threshold'].default, 7);
  assert.equal(COMPARISON_OPTIONS['widget-min-effect'].default, 3);
  const values = { ...defaults(COMPARISON_OPTIONS), 'widget-threshold': 9, 'widget-min-effect': 4 };
  const { settings } = comparisonRequest(values);
  assert.deepEqual(settings.thresholds[FAKE.name], { threshold: 0.09, minimumEffect: 0.04 });

  // A band the verdict cannot use is refused by name, before anything is measured.
  assert.deepEqual(bandFlagProblems({ ...values, 'widget-min-effect': 10 }), [
    '--widget-min-effect 10 is wider than --widget-threshold 9: the minimum effect lies inside the band',
  ]);
  assert.deepEqual(bandFlagProblems({ ...defaults(COMPARISON_OPTIONS), 'no-change-margin': 1 }), [
    '--no-change-margin 1 lies outside --min-effect 2 … --threshold 5: the no-change margin lies between the minimum effect and the band',
  ]);
  assert.deepEqual(bandFlagProblems(defaults(COMPARISON_OPTIONS)), []);
  const margin = comparisonRequest({ ...defaults(COMPARISON_OPTIONS), 'no-change-margin': 4.5 }).settings.thresholds;
  assert.equal(margin['req/s'].noChangeMargin, 0.045);
  assert.equal(margin['CPU µs/request'].noChangeMargin, 0.045);

  const specs = expandSpecs({ variants: ['api'], scenarios: ['user'], connections: [10], options: {} });
  const own = benchmarkSettings({ user: { widgetThreshold: 12 } }, specs, settings);
  assert.deepEqual(own['api user c=10'].thresholds[FAKE.name], { threshold: 0.12, minimumEffect: 0.04 });
  const schema = projectSchema({ builtInNames: [], builtInScenarios: [] });
  const entry = schema.properties.thresholds.additionalProperties;
  assert.ok(entry.properties.widgetThreshold && entry.properties.widgetMinEffect);
});

const comparison = () => ({
  format: 'perfgate-comparison',
  version: 1,
  sides: { base: { description: 'base' }, head: { description: 'head' } },
  settings: { interval: 'welch', thresholds: defaultBands(), mode: 'duet' },
  machine: { cpuModel: 'cpu', cores: 2, node: 'v24', kernel: 'k' },
  pinning: { method: 'none', reason: 'test' },
  benchmarks: [
    {
      id: 'api user c=10',
      status: 'ok',
      mode: 'duet',
      rounds: 2,
      elapsedMs: 2000,
      stoppedBy: 'resolved',
      verdicts: Object.fromEntries(JUDGED_METRICS.map((metric) => [metric.name, { verdict: 'no change', ci: null }])),
      verdict: { verdict: 'no change', calledBy: FAKE.name, notes: [] },
      samples: {
        base: [1, 2].map(() => ({ requestsPerSecond: 100, p99LatencyMs: 2, cpuMicrosPerRequest: 5, widgets: 4 })),
        head: [1, 2].map(() => ({ requestsPerSecond: 100, p99LatencyMs: 2, cpuMicrosPerRequest: 5, widgets: 4 })),
      },
    },
  ],
  gate: { failThreshold: 0.1, failed: false, regressions: [] },
});

test("comparison.json's schema requires its verdict and samples", () => {
  const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
  assert.ok(validate(comparison()), JSON.stringify(validate.errors));
  const without = comparison();
  delete without.benchmarks[0].verdicts[FAKE.name];
  assert.equal(validate(without), false);
  const noSample = comparison();
  delete noSample.benchmarks[0].samples.base[0].widgets;
  assert.equal(validate(noSample), false);
});

test('the report, its band sentence and the PR comment show it, in the registry order', () => {
  const cells = verdictCells(comparison().benchmarks[0]);
  assert.deepEqual(
    cells.map((cell) => cell.split(' | ')[0]),
    ['req/s', FAKE.name, 'p99 latency', 'p99.9 latency', 'CPU µs/request', 'heap bytes/request'],
  );
  const report = comparisonMarkdown(comparison());
  assert.match(report, /\| api user c=10 \| fake widgets \| 4\.00 w \| 4\.00 w \|/);
  assert.match(report, /fake widgets: band ±7 %, minimum effect ±3 %/);
  assert.match(report, /base fake widgets \(w\) \| head fake widgets \(w\)/);
  const comment = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison: comparison() }] },
    { runUrl: 'https://example.test/run', workflow: 'bench' },
  );
  assert.match(comment, /\| `api user c=10` \| fake widgets \|/);
  assert.match(comment, /Verdicts from duet rounds/);
});

test('the run table has its column where the entry says, and the history files its value', () => {
  const summary = {
    requests: { mean: 1000, total: 10000, stddev: 10, samples: 10 },
    latencyMs: { avg: 1, p50: 1, p99: 2, max: 3 },
    cpuMicrosPerRequest: 50,
    peakRssBytes: 1024 * 1024,
    widgets: 1234.4,
    timeouts: 0,
    timeoutPct: 0,
    errors: 0,
    errorPct: 0,
    runs: 1,
  };
  const result = {
    suite: 'smoke',
    config: { engine: 'autocannon' },
    machine: { cpuModel: 'cpu', cores: 2, node: 'v24' },
    pinning: { method: 'none', reason: 'test' },
    git: { commit: 'abc' },
    benchmarks: [
      { id: 'api user c=10', variant: 'api', scenario: 'user', connections: 10, tags: [], status: 'ok', summary },
    ],
  };
  const table = markdownTable(result);
  assert.match(table, /\| Timeouts \| Widgets \| Timeout % \|/);
  assert.match(table, /\| 0 \| 1,234 \| 0\.00 % \|/);
  const files = toBenchmarkAction(result);
  assert.ok(files.smaller.some((bench) => bench.name === 'api user c=10 - fake widgets' && bench.value === 1234.4));
  assert.equal(files.bigger.find((bench) => bench.name === 'api user c=10 - req/s').range, '± 1.0%');
});

test('the trend site orders it as the registry does and shows it by default', () => {
  const sample = (metric) => ({ suite: 's', variant: 'api', scenario: 'user', tier: 10, metric });
  const data = { suites: [{ name: 's' }], samples: ['error %', 'p99 latency', FAKE.name, 'req/s'].map(sample) };
  const choices = filterChoices(data);
  assert.deepEqual(choices.metric, ['req/s', FAKE.name, 'p99 latency', 'error %']);
  assert.deepEqual(choices.defaultMetrics, ['req/s', FAKE.name, 'p99 latency']);
});
