// The leak gate on constructed comparisons (bench/comparison/leak-gate.js): with a soak, a head
// that leaks where the base does not fails the check though it is not slower; a leak both sides
// have, or one within the threshold, does not; the headline, the report and the PR comment say so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { gateExitCode, judgeGate } from '../bench/comparison/gate.js';
import { headlineLines } from '../bench/comparison/headline.js';
import { LEAK_THRESHOLD_BYTES, leakBreaks, withLeakGate } from '../bench/comparison/leak-gate.js';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { escapeMarkdown } from '../bench/core/text.js';
import { renderComment } from '../bench/github/comment.js';
import { trendMoments } from '../bench/stats/linear-trend.js';
import { wholeComparison } from './helpers/comparison-fixture.js';

// One round's sample of a side whose one process keeps `bytesPerRequest` over 3,000 requests,
// at a heap level of its own, with a little noise.
const round = (bytesPerRequest, level) => ({
  requestsPerSecond: 1000,
  p99LatencyMs: 2,
  cpuMicrosPerRequest: 100,
  heapTrend: [
    trendMoments(
      Array.from({ length: 10 }, (_, index) => [
        index * 300,
        level + bytesPerRequest * index * 300 + (index % 3) * 40_000,
      ]),
    ),
  ],
});
const soaked = (id, base, head) => ({
  id,
  status: 'ok',
  rounds: 2,
  elapsedMs: 10_000,
  stoppedBy: 'resolved',
  verdict: { verdict: 'no change', calledBy: 'CPU µs/request', resolved: true, notes: [] },
  verdicts: Object.fromEntries(
    ['req/s', 'p99 latency', 'CPU µs/request'].map((metric) => [
      metric,
      { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
    ]),
  ),
  samples: { base: [round(base, 9e6), round(base, 11e6)], head: [round(head, 9e6), round(head, 10e6)] },
});
const gateOf = (benchmarks) =>
  withLeakGate(judgeGate(benchmarks, { failThreshold: 0.1, failThresholdOf: () => 0.1 }), leakBreaks(benchmarks));

test('a head that keeps 1 KB per request where the base keeps nothing fails the check, though it is not slower', () => {
  const gate = gateOf([soaked('leaky', 0, 1024)]);
  assert.equal(gate.failed, true);
  assert.equal(gateExitCode(gate), 1);
  const [leak] = gate.leaks;
  assert.equal(leak.id, 'leaky');
  // 1,024 bytes per request: 10.24 MB per 10,000 requests, pooled over both rounds at their own levels.
  assert.ok(Math.abs(leak.head.growthBytesPer10kRequests - 10.24e6) < 0.5e6, `${leak.head.growthBytesPer10kRequests}`);
  assert.ok(leak.head.interval[0] > LEAK_THRESHOLD_BYTES && leak.base.interval[0] < LEAK_THRESHOLD_BYTES);
});

test('a leak the base has too, one within the threshold, or no soak at all does not fail the check', () => {
  assert.deepEqual(gateOf([soaked('both', 1024, 1100)]).leaks, [], 'the base leaks as well');
  assert.deepEqual(gateOf([soaked('small', 0, 50)]).leaks, [], '50 bytes per request: 0.5 MB per 10,000');
  assert.deepEqual(leakBreaks([soaked('tight', 0, 50)], 0).length, 1, 'a threshold of 0: any certain growth');
  const plain = soaked('plain', 0, 0);
  for (const side of ['base', 'head']) for (const sample of plain.samples[side]) delete sample.heapTrend;
  const gate = gateOf([plain]);
  assert.equal(gate.leaks, undefined, 'without a soak, the gate is as it was');
  assert.equal(gate.failed, false);
});

test('the headline, the report and the PR comment say in words that the head leaks and the base does not', () => {
  const benchmarks = [soaked('node-http hello c=4', 0, 1024)];
  const comparison = wholeComparison(benchmarks, gateOf(benchmarks));
  const ajv = new Ajv({ allErrors: true });
  assert.ok(ajv.validate(comparisonSchema, comparison), ajv.errorsText());
  const [headline, , line] = headlineLines(comparison, escapeMarkdown);
  assert.match(
    headline,
    /^🔴 The head leaks 10\.\d MB per 10,000 requests \(\+\d+\.\d … \+\d+\.\d\) in node-http hello c=4; the base does not; no regression: the check fails\.$/,
  );
  assert.match(
    line,
    /the heap grows 10\.\d MB .* on the head, -?\d+\.\d MB .* on the base: a leak beyond the 1\.0 MB threshold/,
  );
  assert.match(comparisonMarkdown(comparison), /The head leaks 10\.\d MB per 10,000 requests/);
  assert.match(
    renderComment(
      { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
      { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
    ),
    /The head leaks 10\.\d MB per 10,000 requests .* in `node-http hello c=4`; the base does not/,
  );
});
