// Which metrics decide a comparison at a load point: at a tier, CPU µs/request then req/s (as
// before); at a rate, where req/s is the offered rate, CPU µs/request then p99 latency.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientBoundNoteAt, compareInterleaved } from '../bench/comparison/rounds.js';
import { DECIDING_METRICS, decidingMetricsAt, defaultBands } from '../bench/results/metrics.js';
import { seededRandom } from '../bench/stats/index.js';
import { closedLoad, openLoad } from '../site/shared/load-point.js';

const names = (metrics) => metrics.map((metric) => metric.name);

test('a tier is decided by CPU µs/request then req/s, a rate by CPU µs/request then p99 latency', () => {
  const closed = names(decidingMetricsAt(closedLoad(100)));
  const open = names(decidingMetricsAt(openLoad(2000)));
  assert.deepEqual(closed.slice(0, 2), ['CPU µs/request', 'req/s']);
  assert.ok(!closed.includes('p99 latency'));
  assert.deepEqual(open.slice(0, 2), ['CPU µs/request', 'p99 latency']);
  assert.ok(!open.includes('req/s'), 'at a rate, req/s is the offered rate');
  assert.deepEqual(DECIDING_METRICS, decidingMetricsAt(closedLoad(1)), "a tier's are the default");
});

// Rounds at a held rate: the same req/s and CPU on both sides, head's p99 30 % longer (a stall).
function stalledTail({ behind = false } = {}) {
  const random = seededRandom(7);
  const jitter = () => 1 + 0.02 * (random() - 0.5);
  const side = (p99) => ({
    requestsPerSecond: 2000 * jitter(),
    p99LatencyMs: p99 * jitter(),
    cpuMicrosPerRequest: 300 * jitter(),
    errors: 0,
    timeouts: 0,
    clientSaturated: behind,
  });
  return async () => ({ base: side(10), head: side(13) });
}

const judge = (load, measureRound) =>
  compareInterleaved({ measureRound, thresholds: defaultBands(), budgetMs: 1e9, minRounds: 6, maxRounds: 12, load });

test('at a rate a longer tail is called by p99 latency; at a tier the same rounds are not called by it', async () => {
  const open = await judge(openLoad(2000), stalledTail());
  assert.equal(open.verdict.verdict, 'regression');
  assert.equal(open.verdict.calledBy, 'p99 latency');
  const closed = await judge(closedLoad(100), stalledTail());
  assert.notEqual(closed.verdict.calledBy, 'p99 latency');
  assert.equal(closed.verdicts['p99 latency'].verdict, 'regression', 'judged, not deciding');
});

test('at a rate the client fell behind: p99 is an upper bound, the verdict rests on CPU µs/request', async () => {
  const behind = await judge(openLoad(2000), stalledTail({ behind: true }));
  assert.notEqual(behind.verdict.calledBy, 'p99 latency');
  assert.ok(
    behind.verdict.notes.some((note) =>
      note.startsWith(
        'client-bound: p99 latency is an upper bound, p99.9 latency is an upper bound, the verdict rests on CPU µs/request',
      ),
    ),
    behind.verdict.notes.join('; '),
  );
});

test("a comparison's client-bound note names what the client shaped at its load point", () => {
  assert.match(
    clientBoundNoteAt(closedLoad(100)),
    /^client-bound: req\/s is a lower bound, the verdict rests on CPU µs\/request/,
  );
  assert.match(
    clientBoundNoteAt(openLoad(2000)),
    /^client-bound: p99 latency is an upper bound, p99.9 latency is an upper bound, the verdict rests on CPU µs\/request/,
  );
});
