// The SLO part of compare's gate, on constructed rounds: the head breaking an objective the base
// met fails the check whatever the relative change; both sides breaking it, an unmeasured metric or
// an open load's client behind its schedule does not; the headline says which and by how much.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateExitCode, judgeGate } from '../bench/comparison/gate.js';
import { headlineLines } from '../bench/comparison/headline.js';
import { roundSample } from '../bench/comparison/rounds.js';
import { sloBreaks, withSloGate } from '../bench/comparison/slo-gate.js';
import { VERDICTS } from '../bench/stats/index.js';

const rounds = (p99s, extra = {}) =>
  p99s.map((p99) => ({ requestsPerSecond: 1000, p99LatencyMs: p99, cpuMicrosPerRequest: 100, errorPct: 0, ...extra }));

const benchmark = (id, base, head) => ({
  id,
  variant: id.split(' ')[0],
  scenario: id.split(' ')[1],
  status: 'ok',
  verdict: { verdict: VERDICTS.noChange, calledBy: 'CPU µs/request' },
  verdicts: {},
  samples: { base, head },
});

const config = { slo: { 'p99 latency': '< 50 ms', 'error %': '< 1' } };

test('the head breaking an SLO the base met fails the gate, with the medians of both sides', () => {
  const breaks = sloBreaks([benchmark('express json c=10', rounds([40, 45, 48]), rounds([49, 55, 60]))], config);
  assert.deepEqual(breaks, [{ id: 'express json c=10', metric: 'p99 latency', bound: '< 50 ms', base: 45, head: 55 }]);
  const gate = withSloGate(judgeGate([], { failThreshold: 0.1, failThresholdOf: () => 0.1 }), breaks);
  assert.equal(gate.failed, true);
  assert.equal(gateExitCode(gate), 1);
});

test('both sides breaking it, a met one, an unmeasured metric or a client behind schedule does not fail it', () => {
  const benchmarks = [
    benchmark('express json c=10', rounds([60, 70, 80]), rounds([90, 95, 99])),
    benchmark('fastify json c=10', rounds([10, 11, 12]), rounds([20, 21, 22])),
    benchmark('koa json c=10', rounds([10, 11, 12]), rounds([90, 95, 99], { clientBehind: true })),
    { ...benchmark('hono json c=10', [], []), status: 'failed' },
  ];
  const withHeap = { slo: { ...config.slo, 'heap bytes/request': '< 10 B' } };
  assert.deepEqual(sloBreaks(benchmarks, withHeap), []);
  const gate = withSloGate(judgeGate([], { failThreshold: 0.1, failThresholdOf: () => 0.1 }), []);
  assert.equal(gate.failed, false);
  assert.deepEqual(gate.sloBroken, []);
});

test('error % is kept in every round for the gate, and judged there', () => {
  const run = {
    requests: { mean: 1000 },
    latencyMs: { p99: 5 },
    server: { cpuMicrosPerRequest: 100 },
    errors: 30,
    timeouts: 0,
    errorPct: 3,
    loadGenerator: { saturated: false, schedule: { behind: false } },
  };
  const sample = roundSample(run);
  assert.equal(sample.errorPct, 3);
  assert.equal(sample.clientBehind, false);
  const clean = rounds([5, 5, 5]);
  const breaks = sloBreaks([benchmark('express json r=2000', clean, [sample, sample, sample])], config);
  assert.deepEqual(
    breaks.map(({ metric, base, head }) => [metric, base, head]),
    [['error %', 0, 3]],
  );
});

test('the headline names the SLO the head broke, where the relative change alone would pass', () => {
  const sloBroken = [{ id: 'express json c=10', metric: 'p99 latency', bound: '< 50 ms', base: 45, head: 55 }];
  const comparison = {
    gate: { failed: true, failThreshold: 0.1, regressions: [], sloBroken },
    benchmarks: [benchmark('express json c=10', [], [])],
  };
  const lines = headlineLines(comparison, (text) => text);
  assert.match(
    lines[0],
    /^🔴 The head breaks 1 SLO the base met \(express json c=10\); no regression: the check fails\.$/,
  );
  assert.ok(
    lines.includes(
      '- express json c=10: p99 latency 55 ms on the head, 45 ms on the base: SLO < 50 ms broken by the head',
    ),
  );
});
