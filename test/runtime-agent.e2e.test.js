// The runtime agent in real servers, through `npm run bench --runtime-metrics`: a server that allocates a known
// amount per request and one that blocks its event loop now and then show it in the direction
// and order of magnitude expected, a Go server has the figures absent with the reason, and the
// registry-driven outputs (table, github-action-benchmark files) carry them. Never a speed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBuiltInVariant } from '../bench/measurement/variants.js';
import { leftoverServers, PROJECT_ROOT, readResult, runBench, tempDir, writeConfig } from './helpers/harness.js';

const ALLOCATOR = join(PROJECT_ROOT, 'test/fixtures/servers/allocator.js');
const HELLO = { hello: { path: '/', expect: { status: 200 } } };
const allocator = (env) => ({ command: [process.execPath, ALLOCATOR], env, scenarios: HELLO });

test('heap bytes/request, event-loop delay and their absence for Go, in the result and its outputs', async () => {
  const goUnavailable = (await loadBuiltInVariant('go-nethttp')).unavailable;
  const dir = tempDir();
  const out = join(dir, 'out');
  const config = writeConfig(dir, {
    name: 'agent',
    variants: ['plain', 'allocating', 'blocking', ...(goUnavailable ? [] : ['go-nethttp'])],
    scenarios: ['hello'],
    connections: [4],
    duration: 1,
    warmup: 0.3,
    commands: {
      plain: allocator({}),
      allocating: allocator({ ALLOC_KB: '64' }),
      blocking: allocator({ BLOCK_MS: '100', BLOCK_EVERY: '5' }),
    },
  });
  const run = await runBench(['--config', config, '--runtime-metrics', '--out', out, '--no-history']);
  assert.equal(run.code, 0, run.stderr);
  const result = readResult(out);
  const runtime = (variant) => result.benchmarks.find((each) => each.variant === variant).runs[0].server.runtime;
  const [plain, allocating, blocking] = ['plain', 'allocating', 'blocking'].map(runtime);

  // 64 KB more per request, within a factor of two; counted inside the server, as the client counted.
  const added = allocating.heapBytesPerRequest - plain.heapBytesPerRequest;
  assert.ok(added > 32 * 1024 && added < 128 * 1024, `64 KB allocated per request read as ${added} B more`);
  const served = result.benchmarks.find((each) => each.variant === 'allocating').runs[0].requests.total;
  assert.ok(Math.abs(allocating.requests - served) <= 4 + served / 100, `${allocating.requests} against ${served}`);
  assert.ok(allocating.gcCounts.Scavenge > 0);
  assert.ok(allocating.heapUsedAfterBytes > 0 && allocating.externalAfterBytes > 0);

  // A 100 ms block every fifth request: a third of the loop's turns or more are late by it.
  assert.ok(blocking.eventLoopDelayMs.p99 >= 50, `p99 ${blocking.eventLoopDelayMs.p99} ms`);
  assert.ok(blocking.eventLoopDelayMs.p99 > plain.eventLoopDelayMs.p99);
  assert.equal(blocking.eventLoopDelayMs.resolutionMs, 10);

  const table = readFileSync(join(out, 'table.md'), 'utf8');
  assert.match(table, /\| CPU µs\/request \| Heap B\/request \|/);
  const smaller = JSON.parse(readFileSync(join(out, 'benchmark-action-smaller.json'), 'utf8'));
  const names = smaller.map((entry) => entry.name);
  for (const metric of ['heap bytes/request', 'GC pause/request', 'event-loop delay p99', 'heap used after'])
    assert.ok(names.includes(`allocating hello c=4 - ${metric}`), metric);

  if (!goUnavailable) {
    assert.match(runtime('go-nethttp').absent, /no Node\.js process of the server loaded the runtime agent/);
    assert.ok(!names.some((name) => name.startsWith('go-nethttp hello c=4 - heap')), 'absent, never zero');
    assert.match(table, /\| go-nethttp hello \|.*\| — \|/);
    assert.match(table, /no memory or event-loop figures: no Node\.js process/);
  }
  assert.deepEqual(leftoverServers(), []);
});

test('a soak finds a leak of 1 KB per request and none where nothing is kept, and stops by itself', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const config = writeConfig(dir, {
    name: 'soak',
    variants: ['plain', 'leaking'],
    scenarios: ['hello'],
    connections: [4],
    duration: 3,
    warmup: 0.3,
    commands: { plain: allocator({}), leaking: allocator({ LEAK_KB: '1' }) },
  });
  const run = await runBench(['--config', config, '--soak-every', '0.25', '--out', out, '--no-history']);
  assert.equal(run.code, 0, run.stderr);
  const result = readResult(out);
  const soak = (variant) => result.benchmarks.find((each) => each.variant === variant).runs[0].server.runtime.soak;
  const [plain, leaking] = [soak('plain'), soak('leaking')];
  // 1 KB kept per request: about 10 MB per 10,000 requests.
  const leak = leaking.growthBytesPer10kRequests;
  assert.ok(leak > 5e6 && leak < 2e7, `1 KB kept per request read as ${leak} B per 10,000 requests`);
  assert.ok(leaking.interval[0] > 0, 'the leak is certain');
  // Without a leak the heap wanders by tens of KB, which a short soak's few thousand requests magnify.
  const still = plain.growthBytesPer10kRequests;
  assert.ok(Math.abs(still) < leak / 3, `${still} B per 10,000 requests without a leak, ${leak} B with`);
  assert.ok(plain.samples >= 6 && plain.warmupSamples >= 1 && plain.warmupSamples <= plain.samples / 2);
  const smaller = JSON.parse(readFileSync(join(out, 'benchmark-action-smaller.json'), 'utf8'));
  assert.ok(smaller.some((entry) => entry.name === 'leaking hello c=4 - heap growth/10k requests'));
  assert.deepEqual(leftoverServers(), []);
});

test("a cluster's soak reads every worker that served, with one growth for all", async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const config = writeConfig(dir, {
    name: 'cluster-soak',
    variants: ['node-cluster'],
    scenarios: ['hello'],
    connections: [4],
    duration: 2,
    warmup: 0.3,
    server: { workers: 2 },
  });
  const run = await runBench(['--config', config, '--soak-every', '0.25', '--out', out, '--no-history']);
  assert.equal(run.code, 0, run.stderr);
  const { runtime } = readResult(out).benchmarks[0].runs[0].server;
  assert.ok(runtime.processes >= 2, `${runtime.processes} processes ran the agent`);
  assert.ok(runtime.soak.processes >= 2, `${runtime.soak.processes} serving processes read`);
  assert.equal(runtime.soak.fit.length, runtime.soak.processes);
  assert.ok(runtime.soak.interval[0] <= runtime.soak.growthBytesPer10kRequests);
  assert.deepEqual(leftoverServers(), []);
});

test('a soak bounded by a request count stops at it, long before its duration', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const config = writeConfig(dir, {
    name: 'counted-soak',
    variants: ['plain'],
    scenarios: ['hello'],
    connections: [4],
    duration: 120,
    warmup: 0.3,
    commands: { plain: allocator({}) },
  });
  const run = await runBench([
    ...['--config', config, '--soak-every', '0.1', '--soak-requests', '1500', '--out', out, '--no-history'],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [only] = readResult(out).benchmarks[0].runs;
  // Stopped by the count (autocannon ends at its next 50 ms tick after it), not by the 120 s.
  assert.ok(only.requests.total >= 1500 && only.requests.total < 3000, `${only.requests.total} requests`);
  assert.ok(only.durationSeconds < 120, `${only.durationSeconds} s`);
  assert.ok(only.server.runtime.soak.samples >= 4, 'the soak read its heap until the load stopped');
  assert.deepEqual(leftoverServers(), []);
});

test('a soak of no interval is refused, naming the field', async () => {
  const run = await runBench(['--suite', 'smoke', '--soak-every', '0', '--out', join(tempDir(), 'out')]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /soakEvery: 0 is not a soak's interval: give the seconds between heap readings, above 0/);
});
