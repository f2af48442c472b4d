// The open model's arithmetic on constructed results: latency from each request's due time (a
// stall costs every request due during it), requests sent late or never, a client behind its
// schedule; vegeta's results as it encodes them; the engine's arguments and bad input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LAG_TOLERANCE_MS, mergeSchedules, openSchedule } from '../bench/measurement/engines/open-schedule.js';
import { vegetaArguments, vegetaSample } from '../bench/measurement/engines/vegeta.js';
import { latencySummary, mergeHistograms } from '../bench/measurement/latency-histogram.js';
import { runRecord } from '../bench/results/record.js';

const MS = 1e6;
// 100 requests at 100 req/s (one due every 10 ms from an arbitrary clock origin), each sent when
// due and answered in 1 ms, but those sent while the server stalls answer when the stall ends.
function stalled({ stallFrom = Infinity, stallMs = 0, lag = () => 0 } = {}) {
  const origin = 5e9;
  return Array.from({ length: 100 }, (_, seq) => {
    const sentNs = origin + (seq + 1) * 10 * MS + lag(seq);
    const stallEnd = origin + stallFrom + stallMs * MS;
    const answered = sentNs >= origin + stallFrom && sentNs < stallEnd ? stallEnd + MS : sentNs + MS;
    return { seq, sentNs, latencyNs: answered - sentNs, completed: true };
  });
}

const p = (schedule, percentile) => mergeHistograms([schedule.latencyHistogram]).getValueAtPercentile(percentile);

test('a steady server: every request on time, latency as answered', () => {
  const result = openSchedule({ rate: 100, duration: 1, results: stalled() });
  assert.deepEqual(
    { ...result.schedule, maxLagMs: undefined },
    {
      rate: 100,
      due: 100,
      sent: 100,
      late: 0,
      unsent: 0,
      achievedRate: 100,
      maxLagMs: undefined,
      lagToleranceMs: LAG_TOLERANCE_MS,
      behind: false,
    },
  );
  assert.ok(Math.abs(p(result, 99) - 1000) <= 1, `${p(result, 99)} µs`);
});

test('a stall counts for every request due during it, from when it was due', () => {
  // 100 ms from the 20th request: ten requests wait for it, the first 100 ms, the last 10 ms.
  const result = openSchedule({ rate: 100, duration: 1, results: stalled({ stallFrom: 200 * MS, stallMs: 100 }) });
  const histogram = mergeHistograms([result.latencyHistogram]);
  assert.equal(histogram.totalCount, 100);
  assert.ok(histogram.getValueAtPercentile(95) >= 50_000, 'the tail holds the waits of all ten');
  assert.ok(histogram.maxValue >= 100_000);
  assert.equal(result.schedule.late, 0, 'the client sent on time: the server stalled');
});

test('a client that sends late is behind its schedule, and the lag counts in the latency', () => {
  // From the 50th request on, each is sent 20 ms late.
  const lag = (seq) => (seq >= 50 ? 20 * MS : 0);
  const result = openSchedule({ rate: 100, duration: 1, results: stalled({ lag }) });
  assert.equal(result.schedule.late, 50);
  assert.equal(result.schedule.maxLagMs, 20);
  assert.equal(result.schedule.behind, true);
  assert.ok(p(result, 90) >= 20_000, 'latency from the due time includes the lag');
});

test('requests never sent are unsent, and the achieved rate says so', () => {
  const result = openSchedule({ rate: 100, duration: 2, results: stalled() });
  assert.equal(result.schedule.due, 200);
  assert.equal(result.schedule.unsent, 100);
  assert.equal(result.schedule.achievedRate, 50);
  assert.equal(result.schedule.behind, true);
});

test('one late request in two hundred is within the tolerance of a held schedule', () => {
  const results = [...stalled(), ...stalled().map((each) => ({ ...each, seq: each.seq + 100 }))].map((each) => ({
    ...each,
    sentNs: each.seq >= 100 ? each.sentNs + 1000 * MS : each.sentNs,
  }));
  results[150].sentNs += 50 * MS;
  const { schedule } = openSchedule({ rate: 100, duration: 2, results });
  assert.equal(schedule.late, 1);
  assert.equal(schedule.behind, false);
});

test("a load's processes: their schedules add up, behind if one was", () => {
  const steady = openSchedule({ rate: 100, duration: 1, results: stalled() }).schedule;
  const behind = openSchedule({ rate: 100, duration: 2, results: stalled() }).schedule;
  const merged = mergeSchedules([steady, behind]);
  assert.equal(merged.rate, 200);
  assert.equal(merged.due, 300);
  assert.equal(merged.unsent, 100);
  assert.equal(merged.achievedRate, 150);
  assert.equal(merged.behind, true);
});

// A load of `total` requests over 2 s, and the sampler's readings of its window.
const loadOf = (total, extra) => ({
  engine: 'vegeta',
  processes: 1,
  durationSeconds: 2,
  requests: { total, perSecond: [total, 0] },
  responses: { '2xx': total, non2xx: 0 },
  bytes: 0,
  errors: 0,
  timeouts: 0,
  errorCodes: {},
  latencyHistogram: openSchedule({ rate: 100, duration: 1, results: stalled() }).latencyHistogram,
  client: { cpuSeconds: 0.01 },
  warnings: [],
  ...extra,
});
const sampled = { seconds: 2, cores: [], server: { cpuPct: 5, cpuSeconds: 0.1, peakRssBytes: 1, processes: 1 } };

test('a run whose client fell behind is saturated, with a warning naming the lag, whatever its CPU', () => {
  const behind = openSchedule({ rate: 100, duration: 2, results: stalled() });
  const load = loadOf(100, { latencyHistogram: behind.latencyHistogram, schedule: behind.schedule });
  const run = runRecord(load, sampled, { clientCores: 1 });
  assert.equal(run.loadGenerator.saturated, true);
  assert.equal(run.loadGenerator.schedule.unsent, 100);
  assert.match(
    run.warnings.join('\n'),
    /client behind schedule at 100 req\/s: of 200 requests due, 0 sent over 10 ms late and 100 never sent/,
  );
  assert.doesNotMatch(run.warnings.join('\n'), /client-bound lower bound/, 'not CPU-bound');
  const held = runRecord({ ...load, schedule: { ...behind.schedule, behind: false } }, sampled, { clientCores: 1 });
  assert.equal(held.loadGenerator.saturated, false);
  assert.deepEqual(held.warnings, []);
});

test('a window in which no request completed, failed or timed out says its zeros measure nothing', () => {
  const load = loadOf(0, { engine: 'autocannon' });
  assert.match(
    runRecord(load, sampled, { clientCores: 1 }).warnings.join('\n'),
    /^no request completed, failed or timed out in the 2 s window .*measure longer than the request timeout/,
  );
  const timedOut = runRecord({ ...load, timeouts: 3 }, sampled, { clientCores: 1 });
  assert.deepEqual(timedOut.warnings, [], 'timeouts are a measurement');
});

test("vegeta's JSON results: nanosecond times in any zone, errors by code, bytes from Content-Length", () => {
  const line = (seq, time, extra) =>
    JSON.stringify({
      seq,
      code: 200,
      timestamp: time,
      latency: 2 * MS,
      headers: { 'Content-Length': ['2'] },
      ...extra,
    });
  const sample = vegetaSample(
    [
      line(1, '2026-11-27T10:00:00.02000001+01:00'),
      line(0, '2026-11-27T09:00:00.010000001Z'),
      line(2, '2026-11-27T09:00:00.03Z', { code: 503, headers: {} }),
      line(3, '2026-11-27T09:00:00.04Z', {
        code: 0,
        error:
          'Post "http://127.0.0.1:1/echo": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
      }),
      line(4, '2026-11-27T09:00:00.05Z', { code: 0, error: 'dial tcp 127.0.0.1:1: connect: connection refused' }),
    ],
    { rate: 100, duration: 0.05 },
  );
  assert.equal(sample.requests.total, 3);
  assert.deepEqual(sample.responses, { '2xx': 2, non2xx: 1 });
  assert.equal(sample.errors, 2);
  assert.equal(sample.timeouts, 1);
  assert.deepEqual(sample.errorCodes, { TIMEOUT: 1, ECONNREFUSED: 1 });
  assert.equal(sample.bytes, 4);
  assert.equal(sample.schedule.sent, 5);
  assert.equal(sample.schedule.late, 0, 'each sent when due, to the nanosecond across zones');
  const latency = latencySummary(mergeHistograms([sample.latencyHistogram]));
  assert.equal(latency.max, 2);
});

test("vegeta's arguments: the request's method, headers and body, the rate, the connections as its pool", () => {
  const args = vegetaArguments(
    {
      request: { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'x' },
      connections: 8,
      duration: 0.5,
      rate: 2000,
      timeout: 10,
    },
    { targetsFile: '/t', bodyFile: '/b' },
  );
  assert.deepEqual(args, [
    'attack',
    '-targets=/t',
    '-body=/b',
    '-header',
    'content-type: text/plain',
    '-rate=2000/1s',
    '-duration=500ms',
    '-timeout=10000ms',
    '-connections=8',
    '-max-connections=8',
    '-max-body=0',
  ]);
  const shared = vegetaArguments(
    { request: { method: 'GET', path: '/' }, duration: 1, rate: 1000 / 3, timeout: 1 },
    { targetsFile: '/t' },
  );
  assert.ok(shared.includes('-rate=333333/1000s'), 'a share of a rate kept to the millisecond');
  assert.ok(!shared.some((arg) => arg.includes('connections')), 'no pool named: as many as the schedule needs');
});
