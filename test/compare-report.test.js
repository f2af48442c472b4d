// The report's wording for each verdict, on a constructed comparison: what a reader sees for a
// small but certain change apart from "no change", the count of small regressions, and the legend.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { renderComment } from '../bench/github/comment.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';

const sample = { requestsPerSecond: 1000, p99LatencyMs: 2, cpuMicrosPerRequest: 100 };
const benchmarkWith = (id, verdict, change, ci, notes = []) => ({
  id,
  status: 'ok',
  rounds: 6,
  elapsedMs: 30_000,
  stoppedBy: 'resolved',
  verdict: { verdict, calledBy: 'CPU µs/request', resolved: true, notes },
  verdicts: {
    'req/s': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
    'p99 latency': { verdict: 'inconclusive', change: 0.02, ci: [-0.12, 0.15] },
    'CPU µs/request': { verdict, change, ci },
  },
  samples: { base: [sample], head: [sample] },
});

const comparison = {
  sides: { base: { description: 'main' }, head: { description: 'branch' } },
  ...comparisonFixture(),
  benchmarks: [
    benchmarkWith('a regression', 'regression', 0.12, [0.08, 0.15]),
    benchmarkWith('a small regression', 'small regression', 0.033, [0.019, 0.045]),
    benchmarkWith('another small one', 'small regression', 0.021, [0.004, 0.038]),
    benchmarkWith('a small improvement', 'small improvement', -0.03, [-0.04, -0.01]),
    benchmarkWith('an improvement', 'improvement', -0.1, [-0.12, -0.08]),
    benchmarkWith('no change', 'no change', 0.002, [-0.01, 0.012]),
    benchmarkWith('open', 'inconclusive', 0.01, [-0.06, 0.07]),
  ],
  gate: { failed: true, failThreshold: 0.1, regressions: ['a regression'], smallRegressions: [] },
};

test('each verdict has its own words; a small change says its interval and that it is certain', () => {
  const markdown = comparisonMarkdown(comparison);
  const lines = {
    'a regression': '🔴 regression, called by CPU µs/request: +12.0 % (+8.0 % … +15.0 %)',
    'a small regression':
      '🟠 small regression, called by CPU µs/request: +3.3 % (+1.9 % … +4.5 %), smaller than the gate, but certain',
    'a small improvement':
      '🔵 small improvement, called by CPU µs/request: -3.0 % (-4.0 % … -1.0 %), smaller than the gate, but certain',
    'an improvement': '🟢 improvement, called by CPU µs/request: -10.0 % (-12.0 % … -8.0 %)',
    'no change': '⚪ no change, called by CPU µs/request: +0.2 % (-1.0 % … +1.2 %)',
    open: '🟡 inconclusive, called by CPU µs/request: +1.0 % (-6.0 % … +7.0 %)',
  };
  for (const [id, line] of Object.entries(lines)) assert.ok(markdown.includes(`- **${id}**: ${line}\n`), id);
  assert.match(
    markdown,
    /\| a small regression \| CPU µs\/request \| .* \| \+3\.3 % \| \+1\.9 % … \+4\.5 % \| 🟠 small regression \|/,
  );
  assert.doesNotMatch(markdown, /a small regression \|[^\n]*no change \|\n\| a small regression \| CPU/);
});

test('a metric some rounds did not measure shows the mean of those that did and why it has no change, never NaN', () => {
  const partly = {
    ...benchmarkWith('partly measured', 'no change', 0.002, [-0.01, 0.012]),
    verdicts: {
      ...benchmarkWith('partly measured', 'no change', 0.002, [-0.01, 0.012]).verdicts,
      'p99.9 latency': { verdict: 'inconclusive', ci: null, reason: 'not measured in every round' },
    },
    samples: {
      base: [{ ...sample, p999LatencyMs: 30 }, sample],
      head: [sample, sample],
    },
  };
  const markdown = comparisonMarkdown({ ...comparison, benchmarks: [partly] });
  assert.match(
    markdown,
    /\| partly measured \| p99\.9 latency \| 30\.0+ ms \| n\/a \| n\/a \| not measured in every round \| 🟡 inconclusive \|/,
  );
  assert.doesNotMatch(markdown, /NaN/);
});

test('a reference among the benchmarks is said to be one, which never fails the check', () => {
  const withReference = structuredClone(comparison);
  withReference.benchmarks.push({
    ...benchmarkWith('node-http hello c=10', 'inconclusive', 0.01, [-0.06, 0.07]),
    reference: true,
  });
  const markdown = comparisonMarkdown(withReference);
  assert.match(
    markdown,
    /- \*\*node-http hello c=10\*\*: 🟡 inconclusive, called by CPU µs\/request: [^\n]* \(a reference beside your servers: it never fails the check\)\n/,
  );
  assert.match(
    markdown,
    /- \*\*open\*\*: 🟡 inconclusive, called by CPU µs\/request: \+1\.0 % \(-6\.0 % … \+7\.0 %\)\n/,
  );
});

test("a no change from five rounds shows its equivalence interval and that interval's level", () => {
  const five = benchmarkWith('five rounds', 'no change', 0.004, null);
  five.verdicts['CPU µs/request'] = {
    ...five.verdicts['CPU µs/request'],
    equivalenceCi: [-0.021, 0.026],
    confidence: 0.95,
    equivalenceConfidence: 0.9,
  };
  const markdown = comparisonMarkdown({ ...comparison, benchmarks: [five] });
  assert.ok(
    markdown.includes('- **five rounds**: ⚪ no change, called by CPU µs/request: +0.4 % (-2.1 % … +2.6 % at 90 %)\n'),
  );
  assert.match(
    markdown,
    /\| five rounds \| CPU µs\/request \| .* \| \+0\.4 % \| -2\.1 % … \+2\.6 % at 90 % \| ⚪ no change \|/,
  );
  assert.match(markdown, /\| five rounds \| req\/s \| .* \| -1\.0 % … \+1\.0 % \| ⚪ no change \|/);
});

test('a no change whose 95 % interval reaches past its margin also names the 90 % interval it rests on', () => {
  const wide = benchmarkWith('wide', 'no change', 0.003, [-0.03, 0.072]);
  wide.verdicts['CPU µs/request'] = {
    ...wide.verdicts['CPU µs/request'],
    threshold: 0.05,
    equivalenceCi: [-0.021, 0.046],
    confidence: 0.95,
    equivalenceConfidence: 0.9,
  };
  const narrow = benchmarkWith('narrow', 'no change', 0.003, [-0.03, 0.04]);
  narrow.verdicts['CPU µs/request'] = { ...wide.verdicts['CPU µs/request'], ci: [-0.03, 0.04] };
  // A verdict that records its margin (three quarters of the band) is read against that margin, not the band.
  const margin = benchmarkWith('margin', 'no change', 0.003, [-0.03, 0.04]);
  margin.verdicts['CPU µs/request'] = {
    ...narrow.verdicts['CPU µs/request'],
    equivalenceCi: [-0.021, 0.034],
    equivalenceMargin: 0.0375,
  };
  const markdown = comparisonMarkdown({ ...comparison, benchmarks: [wide, narrow, margin] });
  assert.match(
    markdown,
    /\| wide \| CPU µs\/request \| .* \| -3\.0 % … \+7\.2 %; -2\.1 % … \+4\.6 % at 90 % \| ⚪ no change \|/,
  );
  assert.match(markdown, /\| narrow \| CPU µs\/request \| .* \| -3\.0 % … \+4\.0 % \| ⚪ no change \|/);
  assert.match(
    markdown,
    /\| margin \| CPU µs\/request \| .* \| -3\.0 % … \+4\.0 %; -2\.1 % … \+3\.4 % at 90 % \| ⚪ no change \|/,
  );
});

test('small regressions are counted and listed under the gate, in the report and the PR comment', () => {
  const markdown = comparisonMarkdown(comparison);
  assert.ok(
    markdown.includes(
      '🟠 2 small regressions, smaller than the gate, but certain: a small regression (CPU µs/request +3.3 %, +1.9 % … +4.5 %); ' +
        'another small one (CPU µs/request +2.1 %, +0.4 % … +3.8 %).',
    ),
  );
  const body = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
    { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
  );
  assert.ok(
    body.includes(
      '🟠 2 small regressions, smaller than the gate, but certain: `a small regression` (CPU µs/request +3.3 %, +1.9 % … +4.5 %)',
    ),
  );
  const none = {
    ...comparison,
    benchmarks: comparison.benchmarks.filter((each) => each.verdict.verdict !== 'small regression'),
  };
  assert.doesNotMatch(comparisonMarkdown(none), /small regressions?, smaller/);
});

test('what a sandboxed side did is named in the report and, quoted from the artifact, in the PR comment', () => {
  const wrote =
    'wrote outside its tree and scratch directory (into a throwaway copy of the file system; nothing reached the runner): /r/comparison.json (the results directory)';
  const misbehaved = {
    ...comparison,
    sides: {
      base: { description: 'main', sandbox: { sandboxed: true, misbehaviour: [] } },
      head: { description: 'branch', sandbox: { sandboxed: true, misbehaviour: [wrote] } },
    },
  };
  assert.ok(comparisonMarkdown(misbehaved).includes(`The code under test misbehaved**`));
  assert.ok(comparisonMarkdown(misbehaved).includes(`- the head side ${wrote}`));
  const body = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison: misbehaved }] },
    { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
  );
  assert.ok(body.includes('⚠️ **The code under test misbehaved**'), body);
  assert.ok(body.includes(`- the head side \`${wrote}\``), body);
  assert.doesNotMatch(
    renderComment(
      { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
      { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
    ),
    /misbehaved/,
  );
});

test('misbehaviour quoted in the PR comment reads as written: apostrophes, typographic quotes, µ; never a backtick', () => {
  const strays = "left processes outside its server's process group: node -e 'setTimeout(Math.max, 9e6)'";
  const typographic = 'wrote the server’s “cache” (2 µs)';
  const hostile = 'ended the span` | <b>@admin</b>';
  const misbehaved = {
    ...comparison,
    sides: {
      base: { description: 'main', sandbox: { sandboxed: true, misbehaviour: [] } },
      head: { description: 'branch', sandbox: { sandboxed: true, misbehaviour: [strays, typographic, hostile] } },
    },
  };
  const body = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison: misbehaved }] },
    { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
  );
  assert.ok(body.includes(`- the head side \`${strays}\``), body);
  assert.ok(body.includes(`- the head side \`${typographic}\``), body);
  assert.ok(body.includes('- the head side `ended the span? ? ?b?@admin?/b?`'), body);
});

test('the legend says what each verdict means, and what inconclusive means for p99, which does not decide', () => {
  const markdown = comparisonMarkdown(comparison);
  assert.match(markdown, /regression or improvement when it lies wholly beyond the minimum effect/);
  assert.match(
    markdown,
    /small regression or small improvement when it lies wholly on one side of zero, inside the band \(smaller than the gate, but certain\)/,
  );
  assert.match(
    markdown,
    /no change when it contains zero, the estimate lies inside the minimum effect and the 90 % interval \(an equivalence test; shown instead when the rounds are too few for a 95 % one\) lies wholly inside the no-change margin \(below; unless set, 75 % of the band, at least the minimum effect\), or, in a run that confirms a change, the 80 % interval inside the minimum effect/,
  );
  assert.match(markdown, /for CPU µs\/request and req\/s, which decide, the time budget ran out first/);
  assert.match(
    markdown,
    /for p99 latency, which does not decide, its interval was still open when the deciding metrics stopped the sampling/,
  );
  assert.match(
    markdown,
    /req\/s and CPU µs\/request: band ±5 %, minimum effect ±2 %, no change within ±3.75 %; p99 latency: band and minimum effect ±10 %/,
  );
  // A margin given with the band (--no-change-margin) is the one named.
  const set = Object.fromEntries(
    Object.entries(comparison.settings.thresholds).map(([metric, band]) => [
      metric,
      metric === 'p99 latency' ? band : { ...band, noChangeMargin: 0.045 },
    ]),
  );
  assert.match(
    comparisonMarkdown({ ...comparison, settings: { ...comparison.settings, thresholds: set } }),
    /req\/s and CPU µs\/request: band ±5 %, minimum effect ±2 %, no change within ±4.5 %; p99 latency/,
  );
});

test("comparison.json's schema takes a benchmark's verdict and its confirmation, and refuses a malformed one", () => {
  const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
  const confirmed = { format: 'perfgate-comparison', version: 1, ...structuredClone(comparison) };
  confirmed.benchmarks[1].confirmation = {
    repeated: true,
    first: {
      verdict: { verdict: 'regression', calledBy: 'CPU µs/request', notes: [] },
      rounds: 6,
      samples: { base: [sample], head: [sample] },
    },
  };
  assert.ok(validate(confirmed), JSON.stringify(validate.errors));
  const bad = structuredClone(confirmed);
  bad.benchmarks[1].confirmation.repeated = 'yes';
  assert.equal(validate(bad), false);
  const unknown = structuredClone(confirmed);
  unknown.benchmarks[0].verdict.verdict = 'slightly slower';
  assert.equal(validate(unknown), false);
});

test('a confirmation whose second run called the opposite change says that neither run stands', () => {
  const contradicted = structuredClone(comparison);
  contradicted.benchmarks[1].verdict = { verdict: 'inconclusive', calledBy: 'CPU µs/request', notes: [] };
  contradicted.benchmarks[1].confirmation = {
    repeated: false,
    opposite: 'small regression',
    first: {
      ...benchmarkWith('first', 'small improvement', -0.03, [-0.04, -0.01]),
      rounds: 7,
    },
  };
  const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
  assert.ok(validate({ format: 'perfgate-comparison', version: 1, ...contradicted }), JSON.stringify(validate.errors));
  assert.match(
    comparisonMarkdown(contradicted),
    /a first run called small improvement after 7 rounds; this second run called the opposite, small regression, so neither stands/,
  );
});
