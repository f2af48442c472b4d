// The open-model engine (vegeta) against a real server that stalls on purpose: POST bodies
// sent on schedule, the achieved rate and the requests not sent recorded, a stall the
// closed-loop p99 hides shown by the open model's, a schedule the client cannot hold flagged,
// bench --find-knee's search run through, and an open engine without a rate refused. Directions and
// counts only: no test asserts a speed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { engineFor } from '../bench/measurement/engines/seam.js';
import { vegetaUnavailable } from '../bench/measurement/engines/vegeta.js';
import { readHistoryFile } from '../bench/history/index.js';
import { mergeHistograms } from '../bench/measurement/latency-histogram.js';
import { runLoad } from '../bench/measurement/load.js';
import { spawnGroup, stopGroup } from '../bench/measurement/process/children.js';
import { runRecord } from '../bench/results/record.js';
import { PROJECT_ROOT, runBench, tempDir, writeConfig } from './helpers/harness.js';

const STALLING = join(PROJECT_ROOT, 'test/fixtures/servers/stalling.js');
const POST = { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(100) };

// Starts the stalling server (a pause of `ms` every `every` requests); resolves to { port, stop, received }.
async function startStalling({ every = 0, ms = 0 } = {}) {
  const group = spawnGroup([process.execPath, STALLING], {
    env: { ...process.env, STALL_EVERY: String(every), STALL_MS: String(ms) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(group.child.stdout, 'data');
  const port = Number(String(line).trim());
  return {
    port,
    stop: () => stopGroup(group),
    received: async () => (await fetch(`http://127.0.0.1:${port}/received`)).json(),
  };
}

const p99 = (sample) => mergeHistograms([sample.latencyHistogram]).getValueAtPercentile(99);

describe('vegeta, the open model', { skip: vegetaUnavailable() ?? false }, () => {
  test('POST bodies sent on schedule: achieved rate, schedule and client CPU recorded', async () => {
    const server = await startStalling();
    try {
      const sample = await runLoad({
        engine: 'vegeta',
        port: server.port,
        request: POST,
        connections: 2,
        duration: 1,
        timeout: 5,
        rate: 100,
      });
      const received = await server.received();
      assert.equal(sample.engine, 'vegeta');
      assert.equal(sample.schedule.rate, 100);
      assert.equal(sample.schedule.due, 100);
      assert.equal(sample.schedule.sent + sample.schedule.unsent >= sample.schedule.due, true);
      assert.ok(sample.schedule.achievedRate > 0);
      assert.equal(received.posts, sample.schedule.sent, 'every request sent was a POST');
      assert.equal(received.bodyBytes, received.posts * 100, 'each with its 100-byte body');
      assert.equal(sample.responses['2xx'], sample.requests.total);
      assert.equal(mergeHistograms([sample.latencyHistogram]).totalCount, sample.requests.total);
      assert.ok(sample.client.cpuSeconds > 0, 'the engine process used CPU and it was read');
    } finally {
      await server.stop();
    }
  });

  test('a stall every N requests: the open p99 shows it where the closed-loop p99 at the same rate hides it', async () => {
    // 150 ms once a second at 200 req/s: the closed loop's one connection waits once (1 request
    // in 200), while 30 requests fall due during each stall in the open model (15 %).
    const server = await startStalling({ every: 200, ms: 150 });
    try {
      const load = (engine) =>
        runLoad({ engine, port: server.port, request: POST, connections: 1, duration: 2, timeout: 5, rate: 200 });
      const closed = await load('autocannon');
      const open = await load('vegeta');
      assert.ok(p99(open) > p99(closed), `open p99 ${p99(open)} µs, closed p99 ${p99(closed)} µs`);
      assert.ok(p99(open) >= 50_000, `the open p99 (${p99(open)} µs) is in the stall`);
    } finally {
      await server.stop();
    }
  });

  test('a schedule the client cannot hold is flagged, the run saturated', async () => {
    const server = await startStalling();
    try {
      const load = await runLoad({
        engine: 'vegeta',
        port: server.port,
        request: { method: 'GET', path: '/' },
        connections: 2,
        duration: 0.5,
        timeout: 1,
        rate: 1_000_000,
      });
      assert.equal(load.schedule.behind, true);
      assert.ok(load.schedule.unsent > 0, `${load.schedule.unsent} of ${load.schedule.due} never sent`);
      const sampled = {
        seconds: 0.5,
        cores: [],
        server: { cpuPct: 1, cpuSeconds: 0.1, peakRssBytes: 1, processes: 1 },
      };
      const run = runRecord(load, sampled, { clientCores: 64 });
      assert.equal(run.loadGenerator.saturated, true);
      assert.match(run.warnings.join('\n'), /client behind schedule at 1000000 req\/s/);
    } finally {
      await server.stop();
    }
  });

  test('bench --find-knee loads at the rates of its search and reports the knee with its interval', async () => {
    const dir = tempDir('perfgate-knee-');
    try {
      const config = writeConfig(dir, {
        variants: ['node-http'],
        scenarios: ['hello'],
        connections: [2],
        engine: 'vegeta',
        duration: 0.3,
        warmup: 0,
        // Not on latency: at a few requests a load, one sent late would leave it unjudged (the client's).
        slo: { 'error %': '< 50' },
      });
      const out = join(dir, 'out');
      const run = await runBench([
        '--config',
        config,
        '--rate',
        '20',
        '--find-knee',
        '--knee-steps',
        '2',
        '--out',
        out,
        '--history',
        join(dir, 'data.js'),
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /- node-http hello: knee 40 req\/s; no rate tried broke an SLO \(2 steps, stopped by steps\)/,
      );
      const [knee] = JSON.parse(readFileSync(join(out, 'knee.json'), 'utf8')).knees;
      assert.deepEqual(
        knee.measured.map(({ rate, judged }) => [rate, judged[0].met]),
        [
          [20, true],
          [40, true],
        ],
      );
      // The knee over time: a line of the history's knee group, as the results' action file has it.
      const entry = {
        name: 'node-http hello - knee rate',
        value: 40,
        range: '≥ 40 req/s',
        unit: 'req/s',
      };
      const [written] = JSON.parse(readFileSync(join(out, 'benchmark-action-knee.json'), 'utf8'));
      assert.deepEqual({ ...written, extra: undefined }, { ...entry, extra: undefined });
      const history = readHistoryFile(join(dir, 'data.js'));
      const [kneeRun] = history.entries['perfgate knee'];
      assert.deepEqual(Object.keys(history.entries), ['perfgate knee'], 'not a second point of the throughput group');
      assert.equal(kneeRun.tool, 'customBiggerIsBetter');
      assert.deepEqual(kneeRun.benches, [written]);
      assert.match(written.extra, /variant: node-http\nscenario: hello\noptions: default\n/);
      assert.match(written.extra, /upper end: no rate tried broke an SLO\nslo: error % < 50 %\nsearch: 20 met, 40 met/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an open engine without a rate says how to give one', () => {
    assert.throws(() => engineFor('vegeta', 0), {
      code: 'PG_ENGINE_NEEDS_RATE',
      message: /load engine "vegeta" sends on a fixed schedule and needs a request rate: give --rate R/,
    });
  });
});
