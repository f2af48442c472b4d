// The gate and its headline on constructed comparisons: a failed head fails the check, a failed
// base (or both, or the harness) means it could not run, a reference never fails it; the headline
// words every combination of verdicts so that a reader can check it against the rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { gateExitCode, judgeGate, referenceDifference } from '../bench/comparison/gate.js';
import { headlineLines } from '../bench/comparison/headline.js';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { renderComment } from '../bench/github/comment.js';
import { escapeMarkdown } from '../bench/core/text.js';
import { wholeComparison } from './helpers/comparison-fixture.js';

const sample = { requestsPerSecond: 1000, p99LatencyMs: 2, cpuMicrosPerRequest: 100 };
// A measured benchmark whose verdict CPU µs/request called, with its change and interval.
const measured = (id, verdict, change = 0, ci = [change - 0.01, change + 0.01], extra = {}) => ({
  id,
  status: 'ok',
  rounds: 6,
  elapsedMs: 30_000,
  stoppedBy: 'resolved',
  verdict: { verdict, calledBy: 'CPU µs/request', resolved: true, notes: [] },
  verdicts: {
    'req/s': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
    'p99 latency': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
    'CPU µs/request': { verdict, change, ci },
  },
  samples: { base: [sample], head: [sample] },
  ...extra,
});
const failed = (id, failedSides, extra = {}) => ({
  id,
  status: 'failed',
  code: 'PG_WRONG_ANSWER',
  failedSides,
  reason: `server "x" answered scenario "hello" wrongly, so it was not measured:\n  status: expected 200, got 500`,
  ...extra,
});

const gateOf = (benchmarks) => judgeGate(benchmarks, { failThreshold: 0.1, failThresholdOf: () => 0.1 });
const comparisonOf = (benchmarks) => wholeComparison(benchmarks, gateOf(benchmarks));
const headline = (benchmarks) => headlineLines(comparisonOf(benchmarks), escapeMarkdown)[0];

test('a benchmark that failed on the head alone fails the gate (exit 1); a failed base or both: could not run (exit 2)', () => {
  const head = gateOf([measured('a', 'no change'), failed('b', ['head'])]);
  assert.equal(head.failed, true);
  assert.deepEqual(head.failedOnHead, ['b']);
  assert.equal(gateExitCode(head), 1);
  for (const sides of [['base'], ['base', 'head'], []]) {
    const gate = gateOf([measured('a', 'no change'), failed('b', sides)]);
    assert.equal(gate.failed, false, sides.join('+'));
    assert.deepEqual(gate.notCompared, ['b']);
    assert.equal(gateExitCode(gate), 2, sides.join('+'));
  }
  // A head that failed or regressed is the stronger news: exit 1 even beside one that could not run.
  assert.equal(gateExitCode(gateOf([failed('a', ['head']), failed('b', ['base'])])), 1);
  assert.equal(gateExitCode(gateOf([measured('a', 'regression', 0.2, [0.15, 0.25]), failed('b', ['base'])])), 1);
  assert.equal(gateExitCode(gateOf([measured('a', 'regression', 0.12, [0.05, 0.2])])), 0, 'not certainly beyond');
});

test('a failed reference never fails the gate, and is reported', () => {
  const benchmarks = [measured('a', 'no change'), failed('ref', ['head'], { reference: true })];
  const gate = gateOf(benchmarks);
  assert.equal(gate.failed, false);
  assert.equal(gateExitCode(gate), 0);
  assert.deepEqual(gate.referencesFailed, ['ref']);
  const lines = headlineLines(comparisonOf(benchmarks), escapeMarkdown);
  assert.equal(lines[0], '✅ No regression: the check passes.');
  assert.ok(lines.some((line) => /^- ref failed \(a reference: it never fails the check\): server "x"/.test(line)));
});

test('the headline words every combination of verdicts and failures', () => {
  const cases = [
    [[measured('a', 'no change'), measured('b', 'no change')], '✅ No regression: the check passes.'],
    [
      [measured('a', 'small regression', 0.03), measured('b', 'small regression', 0.02)],
      '✅ No regression; 2 small regressions (smaller than the gate, but certain): the check passes.',
    ],
    [
      [measured('a', 'regression', 0.127, [0.06, 0.19]), measured('b', 'regression', 0.11, [0.03, 0.18])],
      '✅ 2 regressions; none certainly beyond the 10 % gate: the check passes.',
    ],
    [
      [measured('a', 'regression', 0.2, [0.15, 0.25]), measured('b', 'regression', 0.11, [0.03, 0.18])],
      '🔴 2 regressions; 1 certainly beyond the 10 % gate (a): the check fails.',
    ],
    [
      [measured('a', 'no change'), failed('b', ['head'])],
      '🔴 The head failed 1 benchmark (b); no regression: the check fails.',
    ],
    [[failed('a', ['base', 'head'])], '⚠️ 1 benchmark could not be compared (a): the check could not run.'],
    [
      [measured('a', 'improvement', -0.1), measured('b', 'small improvement', -0.03)],
      '✅ No regression; 2 improvements: the check passes.',
    ],
    [
      [measured('a', 'inconclusive', 0.01, [-0.06, 0.07]), measured('b', 'no change')],
      '✅ No regression; 1 inconclusive: the check passes.',
    ],
    [[], '✅ No benchmark of your servers was compared: the check passes.'],
    [
      [
        measured('a', 'no change', 0, undefined, {
          verdicts: {
            ...measured('a', 'no change').verdicts,
            'p99 latency': { verdict: 'regression', change: 0.3, ci: [0.2, 0.4] },
          },
        }),
      ],
      '✅ No regression; 1 benchmark with a regression only in p99 latency, which did not call its verdict: the check passes.',
    ],
  ];
  for (const [benchmarks, expected] of cases) assert.equal(headline(benchmarks), expected);
});

test('the report and the PR comment say which benchmark failed on the head and why', () => {
  const comparison = comparisonOf([measured('a', 'no change'), failed('api hello c=10', ['head'])]);
  const line =
    /failed on the head, where the base did not: .*server "x" answered scenario "hello" wrongly, so it was not measured: status: expected 200, got 500/;
  const report = comparisonMarkdown(comparison);
  assert.match(report, /🔴 The head failed 1 benchmark \(api hello c=10\); no regression: the check fails\./);
  assert.match(report, new RegExp(`- api hello c=10 ${line.source}`));
  const comment = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
    { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
  );
  assert.match(comment, /🔴 The head failed 1 benchmark \(`api hello c=10`\); no regression: the check fails\./);
  assert.match(comment, new RegExp(`- \`api hello c=10\` ${line.source}`));
  const couldNot = comparisonMarkdown(comparisonOf([failed('api hello c=10', ['base', 'head'])]));
  assert.match(couldNot, /- api hello c=10 could not be compared, both sides failed: server "x"/);
});

test("comparison.json's schema takes the failed sides, the references and the gate's new lists", () => {
  const validate = new Ajv({ strict: false }).compile(comparisonSchema);
  const comparison = comparisonOf([
    failed('a', ['head']),
    measured('ref', 'regression', 0.3, [0.2, 0.4], {
      reference: true,
      referenceDiffers: 'it runs on node@22 vs node@24',
    }),
  ]);
  assert.ok(validate(comparison), JSON.stringify(validate.errors));
  comparison.benchmarks[0].failedSides = ['server'];
  assert.equal(validate(comparison), false);
});

const variant = (runtime, command = ['node', 'servers/launch.js'], env = {}) => ({
  runtime,
  launch: { command, env },
});

test('a reference whose sides differ is not a steadiness reference: the report says what it measured', () => {
  // Commits or overrides of a project: both sides run perfgate's own copy of a reference, the same code.
  assert.equal(referenceDifference(variant('system'), variant('system')), null);
  assert.equal(referenceDifference(variant('node@22'), variant('node@24')), 'it runs on node@22 vs node@24');
  assert.equal(
    referenceDifference(variant('system'), variant('node@24')),
    "it runs on the system's Node.js vs node@24",
  );
  assert.match(referenceDifference(variant('system', ['a']), variant('system', ['b'])), /its own tree/);
  assert.match(referenceDifference(variant('system', ['a'], { X: '1' }), variant('system', ['a'])), /environment/);

  const differing = measured('node-http hello c=4', 'improvement', -0.4, [-0.45, -0.35], {
    reference: true,
    referenceDiffers: 'it runs on node@22 vs node@24',
  });
  const comparison = comparisonOf([measured('api', 'improvement', -0.3, [-0.35, -0.25]), differing]);
  assert.deepEqual(comparison.gate.referencesMoved, [], 'its move is not the machine');
  const report = comparisonMarkdown(comparison);
  assert.doesNotMatch(report, /not steady/);
  assert.match(
    report,
    /ℹ️ The reference node-http hello c=4: improvement \(-40\.0 % in CPU µs\/request\); it runs on node@22 vs node@24, so this is that difference's effect on it, not a measure of the machine's steadiness\./,
  );
  // The same reference with the same code on both sides still warns.
  const { referenceDiffers, ...steady } = differing;
  assert.match(comparisonMarkdown(comparisonOf([steady])), /moved although its code is the same on both sides/);
});
