// The load-engine seam: the test double through bench/measurement/load.js, autocannon and wrk against a
// real server (fields filled, POST bodies sent, client CPU sampled), the µs histograms,
// CPU µs/request from a server that burns a known CPU time, a tier spread over several
// processes under a lowered open-file limit, and bad input. No test asserts a speed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { doubleEngine } from '../bench/measurement/engines/double.js';
import { engineFor } from '../bench/measurement/engines/seam.js';
import { wrkArguments, wrkUnavailable } from '../bench/measurement/engines/wrk.js';
import {
  createHistogram,
  encodeHistogram,
  latencySummary,
  mergeHistograms,
} from '../bench/measurement/latency-histogram.js';
import { prepareLoad, processesFor, runLoad } from '../bench/measurement/load.js';
import { closedLoad, engineLoads } from '../site/shared/load-point.js';
import { spawnGroup, stopGroup } from '../bench/measurement/process/children.js';
import { runRecord, summarizeRuns } from '../bench/results/record.js';
import { startSampler } from '../bench/measurement/sampling/sampler.js';
import { PROJECT_ROOT } from './helpers/harness.js';
import { ownLines } from './helpers/test-processes.js';

const BURNER = join(PROJECT_ROOT, 'test/fixtures/servers/cpu-burner.js');
const POST = { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(100) };

// Starts the burner in its own process group; resolves to { port, pid, stop, received }.
async function startBurner(burnMicros = 0) {
  const group = spawnGroup([process.execPath, BURNER], {
    env: { ...process.env, BURN_MICROS: String(burnMicros) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(group.child.stdout, 'data');
  const port = Number(String(line).trim());
  return {
    port,
    pid: group.child.pid,
    stop: () => stopGroup(group),
    received: async () => (await fetch(`http://127.0.0.1:${port}/received`)).json(),
  };
}

const encoded = (values) => {
  const histogram = createHistogram();
  for (const value of values) histogram.recordValue(value);
  return encodeHistogram(histogram);
};

describe('the seam, with the test double', () => {
  test('a load over several processes is split, merged and keeps every response time', async () => {
    const launched = [];
    const engine = doubleEngine({
      latenciesMicros: [100, 200, 300, 400],
      errorCodes: { ECONNRESET: 1 },
      cpuSeconds: 0.25,
      launched,
    });
    const sample = await runLoad({
      engine,
      port: 1,
      request: POST,
      connections: 10,
      duration: 2,
      timeout: 5,
      workers: 3,
    });
    assert.deepEqual(
      launched.map((options) => options.connections),
      [4, 3, 3],
    );
    assert.equal(sample.engine, 'double');
    assert.equal(sample.processes, 3);
    assert.equal(sample.requests.total, 12);
    assert.deepEqual(sample.requests.perSecond, [6, 6]);
    assert.deepEqual(sample.errorCodes, { ECONNRESET: 3 });
    assert.equal(sample.client.cpuSeconds, 0.75);
    assert.equal(mergeHistograms([sample.latencyHistogram]).totalCount, 12);
  });

  test("a rate is the whole load's, split over its processes as the connections are; an engine that cannot pace refuses it", async () => {
    const launched = [];
    await runLoad({
      engine: { ...doubleEngine({ launched }), paces: true },
      port: 1,
      request: POST,
      connections: 10,
      duration: 1,
      timeout: 5,
      workers: 3,
      rate: 100,
    });
    assert.deepEqual(
      launched.map((options) => options.rate),
      [40, 30, 30],
    );
    await assert.rejects(
      runLoad({ engine: doubleEngine(), port: 1, request: POST, connections: 1, duration: 1, timeout: 5, rate: 100 }),
      {
        code: 'PG_ENGINE_CANNOT_PACE',
        message: /load engine "double" cannot hold a request rate: drop --rate .*, or use autocannon/,
      },
    );
  });

  test('socket exhaustion in the client is a warning that names the tier', async () => {
    const engine = doubleEngine({ errorCodes: { EMFILE: 2 } });
    const sample = await runLoad({ engine, port: 1, request: POST, connections: 5, duration: 1, timeout: 5 });
    assert.match(sample.warnings[0], /could not open 5 sockets \(EMFILE\)/);
  });

  test('the run record: µs latency, CPU µs/request, client saturation against its cores', async () => {
    const engine = doubleEngine({ latenciesMicros: Array(1000).fill(420), cpuSeconds: 0.95 });
    const load = await runLoad({ engine, port: 1, request: POST, connections: 1, duration: 1, timeout: 5 });
    const sampled = { seconds: 1, cores: [], server: { cpuPct: 50, cpuSeconds: 0.5, peakRssBytes: 1, processes: 1 } };
    const run = runRecord(load, sampled, { clientCores: 1 });
    assert.equal(run.latencyMs.p50, 0.42);
    assert.equal(run.server.cpuMicrosPerRequest, 500);
    assert.equal(run.loadGenerator.saturated, true);
    assert.match(run.warnings.at(-1), /client-bound lower bound/);
    assert.equal(
      runRecord(load, sampled, { clientCores: 2 }).loadGenerator.saturated,
      false,
      'two cores: 95 % of one is not saturated',
    );
    // The machine during the run: the CPU model it reported and its cores' mean steal %.
    const cores = [
      { core: 0, busyPct: 90, stealPct: 12 },
      { core: 1, busyPct: 80, stealPct: 3 },
    ];
    assert.deepEqual(runRecord(load, { ...sampled, cores, cpuModel: 'EPYC 7763' }, { clientCores: 1 }).host, {
      cpuModel: 'EPYC 7763',
      stealPct: 7.5,
    });
  });
});

describe('µs histograms', () => {
  test('percentiles of merged histograms match known values, below a millisecond too', () => {
    const merged = mergeHistograms([encoded([100, 200, 300, 400, 500]), encoded([600, 700, 800, 900, 1000])]);
    assert.equal(merged.totalCount, 10);
    assert.deepEqual(latencySummary(merged), { avg: 0.55, p50: 0.5, p90: 0.9, p99: 1, max: 1 });
  });

  test("a benchmark's percentiles come from the merged histogram of its runs, not the median of theirs", () => {
    const run = (values, cpuSeconds) => ({
      engine: 'double',
      requests: { mean: values.length, stddev: 0, min: 1, max: 1, total: values.length, perSecond: [values.length] },
      latencyMs: latencySummary(mergeHistograms([encoded(values)])),
      latencyHistogram: encoded(values),
      bytesPerSecond: 1,
      errors: 0,
      timeouts: 0,
      server: { cpuPct: 1, cpuSeconds, peakRssBytes: 1, processes: 1 },
      loadGenerator: { cpuPct: 1, saturated: false },
      warnings: [],
    });
    // 98 fast answers in each run, and 4 slow ones in one of them: p99 is slow over all of them.
    const summary = summarizeRuns([
      run([...Array(98).fill(100), ...Array(4).fill(9000)], 0.0102),
      run(Array(98).fill(100), 0.0098),
    ]);
    assert.ok(
      Math.abs(summary.latencyMs.p99 - 9) <= 0.01,
      `p99 ${summary.latencyMs.p99} ms (HDR: 3 significant digits)`,
    );
    assert.equal(summary.latencyMs.p50, 0.1);
    assert.equal(summary.cpuMicrosPerRequest, 100, 'all CPU over all requests');
  });
});

for (const name of ['autocannon', 'wrk']) {
  describe(`${name} against a real server`, { skip: (name === 'wrk' && wrkUnavailable()) || false }, () => {
    let server;
    after(() => server?.stop());

    test('POST bodies sent, every field filled, client CPU sampled', async () => {
      server = await startBurner();
      const sample = await runLoad({
        engine: name,
        port: server.port,
        request: POST,
        connections: 4,
        duration: 1,
        timeout: 5,
      });
      const received = await server.received();
      assert.equal(sample.engine, name);
      assert.ok(sample.requests.total > 0);
      assert.ok(received.posts >= sample.requests.total, 'every counted response was to a POST');
      assert.equal(received.bodyBytes, received.posts * 100, 'each with its 100-byte body');
      assert.equal(sample.responses['2xx'], sample.requests.total);
      assert.equal(sample.errors, 0);
      const recorded = mergeHistograms([sample.latencyHistogram]).totalCount;
      // wrk corrects its histogram for coordinated omission before its script sees it: more values than responses.
      if (name === 'wrk')
        assert.ok(recorded >= sample.requests.total, `${recorded} values for ${sample.requests.total} responses`);
      else
        assert.ok(
          Math.abs(recorded - sample.requests.total) <= 4,
          'a response time for every response (but those in flight at the end)',
        );
      assert.ok(sample.client.cpuSeconds > 0, 'the engine process used CPU and it was read');
      if (name === 'autocannon') assert.equal(sample.requests.perSecond.length, 1);
      await server.stop();
      server = undefined;
    });
  });
}

test('autocannon at a rate sends no more than the rate', async () => {
  const server = await startBurner();
  try {
    const sample = await runLoad({
      engine: 'autocannon',
      port: server.port,
      request: POST,
      connections: 4,
      duration: 2,
      timeout: 5,
      rate: 40,
    });
    assert.ok(sample.requests.total > 0);
    // 40 per second for 2 s; autocannon may begin a third second's share as it stops.
    assert.ok(sample.requests.total <= 40 * 3, `${sample.requests.total} requests`);
  } finally {
    await server.stop();
  }
});

test('autocannon ends a load at its duration, under a second too, and counts whole seconds only', async () => {
  const server = await startBurner();
  const load = (duration) =>
    runLoad({ engine: 'autocannon', port: server.port, request: POST, connections: 2, duration, timeout: 5 });
  try {
    // autocannon alone stops at its next 1 s sample tick: a 0.3 s warm-up would load for a second.
    const short = await load(0.3);
    assert.ok(short.requests.total > 0);
    assert.ok(short.durationSeconds < 0.8, `${short.durationSeconds} s for 0.3 s`);
    assert.deepEqual(short.requests.perSecond, [], 'no whole second');
    const two = await load(2);
    assert.equal(two.requests.perSecond.length, 2, `${two.requests.perSecond}`);
    assert.ok(two.requests.perSecond.every((count) => count > 0));
  } finally {
    await server.stop();
  }
});

// The load processes start while the server does (bench/measurement/measure.js): the port is a promise.
const autocannonProcesses = () =>
  ownLines(
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('engines/autocannon-process.js')),
  );

test('autocannon launched before its server: it aims once the port is known, and ends when the server never starts', async () => {
  const before = autocannonProcesses().length;
  const server = startBurner();
  const load = await prepareLoad({
    engine: 'autocannon',
    port: server.then((started) => started.port),
    request: POST,
    connections: 2,
    duration: 0.5,
    timeout: 5,
  });
  try {
    assert.ok((await load.go()).requests.total > 0);
  } finally {
    await load.stop();
    await (await server).stop();
  }
  const failedStart = Promise.reject(new Error('the server exited while starting'));
  await assert.rejects(
    prepareLoad({ engine: 'autocannon', port: failedStart, request: POST, connections: 2, duration: 1, timeout: 5 }),
    /autocannon.*the server exited while starting/,
  );
  assert.equal(autocannonProcesses().length, before, 'no load process left behind');
});

test('CPU µs/request from a server that burns a known CPU time per request', async () => {
  const server = await startBurner(2000);
  try {
    const stop = startSampler([server.pid]);
    const load = await runLoad({
      engine: 'autocannon',
      port: server.port,
      request: { method: 'GET', path: '/' },
      connections: 2,
      duration: 2,
      timeout: 10,
    });
    const run = runRecord(load, stop(), { clientCores: 1 });
    // 2000 µs burnt, plus HTTP handling; ticks of 10 ms over a small window: a generous band.
    assert.ok(
      run.server.cpuMicrosPerRequest >= 1800 && run.server.cpuMicrosPerRequest <= 4000,
      `${run.server.cpuMicrosPerRequest} µs/request`,
    );
  } finally {
    await server.stop();
  }
});

test("a tier beyond one process's open-file limit runs over several load processes", async () => {
  const server = await startBurner();
  try {
    const script = `import { runLoad } from ${JSON.stringify(join(PROJECT_ROOT, 'bench/measurement/load.js'))};
      const sample = await runLoad({ port: ${server.port}, request: { method: 'GET', path: '/' }, connections: 600, duration: 1, timeout: 10 });
      console.log(JSON.stringify({ processes: sample.processes, total: sample.requests.total, codes: sample.errorCodes }));`;
    // The hard limit too, so that the load process cannot raise it back.
    const out = execFileSync('prlimit', ['--nofile=500:500', process.execPath, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').at(-1));
    assert.equal(result.processes, 3, '600 connections with 500 - 256 file descriptors each');
    assert.ok(result.total > 0);
    assert.equal(result.codes.EMFILE, undefined, 'no process ran out of sockets');
  } finally {
    await server.stop();
  }
});

describe('bad input', () => {
  test('an unknown engine names the known ones', () => {
    assert.throws(() => engineFor('nosuch'), {
      code: 'PG_UNKNOWN_ENGINE',
      message: /unknown load engine "nosuch": choose one of autocannon, wrk/,
    });
  });

  test('wrk missing says where it comes from', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      assert.throws(() => engineFor('wrk'), {
        code: 'PG_ENGINE_UNAVAILABLE',
        message: /load engine "wrk" cannot run here: wrk is not installed \(Debian package wrk/,
      });
    } finally {
      process.env.PATH = path;
    }
  });

  test("npm run bench -- --engine nosuch exits with the schema's list of engines", () => {
    const run = spawnSync(
      process.execPath,
      [join(PROJECT_ROOT, 'scripts/bench.mjs'), '--engine', 'nosuch', '--no-history'],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 2);
    assert.match(run.stderr, /engine: "nosuch" is not allowed \(allowed: autocannon, wrk, vegeta\)/);
  });

  test('pure helpers: processes per tier, connections per process, wrk arguments', () => {
    assert.equal(processesFor(20000, { fileLimit: 20000 }), 2);
    assert.equal(processesFor(100, { fileLimit: 1024, workers: 2 }), 2);
    assert.throws(() => processesFor(10, { fileLimit: 100 }), { code: 'PG_FILE_LIMIT' });
    assert.deepEqual(
      engineLoads(closedLoad(20000), 3).map((share) => share.connections),
      [6667, 6667, 6666],
    );
    assert.deepEqual(
      wrkArguments({ port: 8, request: POST, connections: 4, duration: 0.5, timeout: 2.5, threads: 8 }).slice(0, 5),
      ['-t4', '-c4', '-d1s', '--timeout', '3s'],
    );
  });
});
