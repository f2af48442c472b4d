// The runtime agent's readings (bench/measurement/runtime-agent/readings.js) as figures per
// request, how a side's process loads the agent (sideCommand), and the run record's and
// summary's use of them. No servers: the e2e test starts them.
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { suiteRequest } from '../bench/cli/suite-options.js';
import { validateSuite } from '../bench/config/schema.js';
import { DEFAULTS } from '../bench/config/suites.js';
import { measurementSettings } from '../bench/measurement/context.js';
import { engineFor } from '../bench/measurement/engines/seam.js';
import { sideCommand } from '../bench/measurement/process/server.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { heapGrowth, readingProblem, runtimeFigures } from '../bench/measurement/runtime-agent/readings.js';
import { closeWindow, openWindow, runtimeAgentLaunch } from '../bench/measurement/runtime-agent/window.js';
import { processGroup } from '../bench/measurement/sandbox/processes.js';
import { markdownTable } from '../bench/results/markdown.js';
import { measuredIn, metricByName, summaryValue } from '../bench/results/metrics.js';
import { runRecord, summarizeRuns } from '../bench/results/record.js';
import { resultProblems } from '../bench/results/schema.js';
import { createHistogram, encodeHistogram } from '../bench/measurement/latency-histogram.js';

// One process's reading as the agent writes it: `allocated` bytes over the window, of which the
// heap kept `grew` and GCs freed the rest.
const reading = ({ requests = 1000, allocated = 4e6, grew = 1e6, totalAllocated, p99Ms = 2, ...rest } = {}) => ({
  runtime: 'v20.0.0',
  windowMs: 2000,
  requests,
  heap: {
    usedStart: 5e6,
    usedEnd: 5e6 + grew,
    freedByGc: allocated - grew,
    ...(totalAllocated === undefined ? {} : { totalAllocated }),
  },
  gc: { counts: { Scavenge: 3, MarkSweepCompact: 1 }, pauseMicros: 5000 },
  loop: { resolutionMs: 1, samples: 1500, p50Ns: 1.1e6, p99Ns: (1 + p99Ms) * 1e6, maxNs: 20e6, utilization: 0.5 },
  after: { usedHeap: 6e6, external: 1e6 },
  ...rest,
});

test('one process: bytes per request from the GC profiler, pauses, GCs by kind, the loop less its timer period', () => {
  assert.deepEqual(runtimeFigures([reading()]), {
    processes: 1,
    requests: 1000,
    heapBytesPerRequest: 4000,
    gcPauseMicrosPerRequest: 5,
    gcCounts: { Scavenge: 3, MarkSweepCompact: 1 },
    eventLoopDelayMs: { p50: 0.1, p99: 2, max: 19, resolutionMs: 1 },
    eventLoopUtilizationPct: 50,
    heapUsedAfterBytes: 6e6,
    externalAfterBytes: 1e6,
  });
});

test("the GC profiler's count on every runtime, V8's own beside it where the runtime has it", () => {
  const figures = runtimeFigures([reading({ totalAllocated: 4.2e6 })]);
  assert.equal(figures.heapBytesPerRequest, 4000);
  assert.equal(figures.v8AllocatedBytesPerRequest, 4200);
  assert.equal(runtimeFigures([reading()]).v8AllocatedBytesPerRequest, undefined);
});

test('a cluster: requests, bytes, pauses and heaps summed, the event loop of its worst serving process', () => {
  const primary = reading({ requests: 0, allocated: 1e5, grew: 0, p99Ms: 50 });
  const figures = runtimeFigures([primary, reading({ p99Ms: 3 }), reading({ requests: 3000, allocated: 8e6 })]);
  assert.equal(figures.processes, 3);
  assert.equal(figures.requests, 4000);
  assert.equal(figures.heapBytesPerRequest, (1e5 + 4e6 + 8e6) / 4000);
  assert.equal(figures.eventLoopDelayMs.p99, 3, 'the primary serves no request');
  assert.deepEqual(figures.gcCounts, { Scavenge: 9, MarkSweepCompact: 3 });
  assert.equal(figures.heapUsedAfterBytes, 18e6);
});

test('absent, with the reason, never zero: no agent, or no request reached one', () => {
  assert.match(runtimeFigures([]).absent, /no Node\.js process/);
  assert.match(runtimeFigures([reading({ requests: 0 })]).absent, /no request reached node:http .*uWebSockets\.js/);
});

test("a side's reading is checked before it is used", () => {
  assert.equal(readingProblem(reading()), null);
  assert.match(readingProblem(null), /without its numbers/);
  assert.match(readingProblem(reading({ requests: -1 })), /without its numbers/);
  assert.match(readingProblem(reading({ gc: { counts: { Scavenge: 'x' }, pauseMicros: 1 } })), /GC counts/);
  assert.match(readingProblem({ ...reading(), loop: { ...reading().loop, p99Ns: Number.NaN } }), /without its numbers/);
});

test('the agent is preloaded into Node only: Bun and a Node too old for --import get the reason', () => {
  const { preload } = runtimeAgentLaunch('/tmp/out');
  assert.match(preload.env.NODE_OPTIONS, /^--import="file:\/\/.*runtime-agent\/agent\.mjs"$/);
  assert.equal(preload.env.PERFGATE_AGENT_DIR, '/tmp/out');
  assert.match(preload.readOnly[0], /runtime-agent\/$/);
  assert.match(runtimeAgentLaunch('/tmp/out', { name: 'bun', version: '1.3.0' }).absent, /runs on bun, not Node\.js/);
  assert.match(runtimeAgentLaunch('/tmp/out', { name: 'node', version: '18.12.0' }).absent, /cannot preload the agent/);
});

test("sideCommand adds the agent to the side's own NODE_OPTIONS", () => {
  const { preload } = runtimeAgentLaunch('/tmp/out');
  const launch = { env: { NODE_OPTIONS: '--max-old-space-size=256' } };
  const { env } = sideCommand(['node', 'server.js'], launch, { agent: preload });
  assert.equal(env.NODE_OPTIONS.split(' ')[0], '--max-old-space-size=256');
  assert.ok(env.NODE_OPTIONS.endsWith(preload.env.NODE_OPTIONS));
  assert.equal(env.PERFGATE_AGENT_DIR, '/tmp/out');
  assert.equal(sideCommand(['node', 'server.js'], launch).env.PERFGATE_AGENT_DIR, undefined);
});

const load = (total) => ({
  engine: 'autocannon',
  processes: 1,
  durationSeconds: 2,
  requests: { total, perSecond: [total / 2, total / 2] },
  responses: { '2xx': total, non2xx: 0 },
  bytes: 0,
  errors: 0,
  timeouts: 0,
  errorCodes: {},
  latencyHistogram: encodeHistogram(createHistogram()),
  client: { cpuSeconds: 0.1 },
  warnings: [],
});
const sampled = { seconds: 2, cores: [], server: { cpuPct: 50, cpuSeconds: 1, peakRssBytes: 1, processes: 1 } };

test("the summary holds each summarised metric of the registry: per request over all runs' requests", () => {
  const runs = [
    runRecord(load(1000), sampled, { clientCores: 1, runtime: runtimeFigures([reading()]) }),
    runRecord(load(3000), sampled, {
      clientCores: 1,
      runtime: runtimeFigures([reading({ requests: 3000, allocated: 6e6 })]),
    }),
  ];
  const summary = summarizeRuns(runs);
  // 4000 B over 1000 requests, 2000 B over 3000.
  assert.equal(summaryValue(metricByName('heap bytes/request'), summary), 2500);
  assert.equal(summaryValue(metricByName('event-loop delay p99'), summary), 2);
  assert.equal(summaryValue(metricByName('heap used after'), summary), 5.72);
  assert.deepEqual(summary.warnings, []);
});

test('a run without the figures leaves them absent from the summary, with its reason among the warnings', () => {
  const absent = { absent: 'the server runs on bun, not Node.js' };
  const summary = summarizeRuns([runRecord(load(1000), sampled, { clientCores: 1, runtime: absent })]);
  assert.equal(summaryValue(metricByName('heap bytes/request'), summary), null);
  assert.deepEqual(summary.warnings, ['no memory or event-loop figures: the server runs on bun, not Node.js']);
});

// This process stands for the server: it answers the harness's signal by doing nothing, its
// reading already written.
test("the window's readings are read as plain files only, and checked", async () => {
  process.on('SIGUSR2', () => {});
  const server = (file) => {
    const dir = mkdtempSync(join(tmpdir(), 'perfgate-agent-'));
    file(join(dir, `${process.pid}.runtime.json`));
    return { pid: processGroup(process.pid), agent: { dir } };
  };
  const opened = { pids: [process.pid] };
  const written = server((file) => writeFileSync(file, JSON.stringify(reading())));
  assert.equal((await closeWindow(written, opened)).heapBytesPerRequest, 4000);
  const linked = server((file) => symlinkSync('/etc/hostname', file));
  assert.match((await closeWindow(linked, opened)).absent, /wrote a reading that is not a plain file/);
  const forged = server((file) => writeFileSync(file, JSON.stringify({ ...reading(), requests: 'many' })));
  assert.match((await closeWindow(forged, opened)).absent, /wrote a reading without its numbers/);
  assert.equal(await closeWindow(written, null), undefined, 'no agent asked for');
  // A pid outside the server's process group (a reused one) is never signalled.
  writeFileSync(join(written.agent.dir, `${process.pid}.runtime-agent`), '');
  assert.match((await openWindow({ ...written, pid: 1 })).absent, /named process \d+, which is not the server's/);
});

test('off unless asked for: --runtime-metrics or runtimeMetrics in a config turns the agent on', () => {
  const [spec] = expandSpecs({ variants: ['node-http'], scenarios: ['hello'], connections: [10], options: {} });
  assert.equal(measurementSettings(DEFAULTS, spec).runtimeAgent, false);
  assert.deepEqual(measurementSettings({ ...DEFAULTS, runtimeMetrics: true }, spec).runtimeAgent, { heapEveryMs: 0 });
  assert.deepEqual(measurementSettings({ ...DEFAULTS, soakEvery: 0.5 }, spec).runtimeAgent, { heapEveryMs: 500 });
  assert.equal(suiteRequest({ suite: 'smoke', 'runtime-metrics': true }).overrides.runtimeMetrics, true);
  assert.equal(suiteRequest({ suite: 'smoke', 'soak-every': '0.5' }).overrides.soakEvery, 0.5);
  assert.equal(suiteRequest({ suite: 'smoke' }).overrides.runtimeMetrics, undefined);
});

// A result.json of one benchmark's run whose runtime figures are `runtime`.
const resultWith = (runtime) => {
  const run = runRecord(load(1000), sampled, { clientCores: 1, runtime });
  return {
    format: 'perfgate-result',
    version: 1,
    suite: 's',
    status: 'complete',
    startedAt: '2026-11-27T10:00:00Z',
    machine: { cpuModel: 'cpu', cores: 2, node: 'v20', kernel: 'k', arch: 'x64' },
    git: { commit: 'abc' },
    packages: {},
    pinning: { method: 'none', reason: 'test' },
    config: { engine: 'autocannon' },
    benchmarks: [
      {
        id: 'api hello c=4',
        variant: 'api',
        scenario: 'hello',
        connections: 4,
        tags: [],
        options: {},
        status: 'ok',
        runs: [run],
        summary: summarizeRuns([run]),
      },
    ],
  };
};

test('the run table has the heap column only when a benchmark measured it', () => {
  assert.doesNotMatch(markdownTable(resultWith(undefined)), /Heap B\/request/);
  assert.match(
    markdownTable(resultWith(runtimeFigures([reading()]))),
    /\| CPU µs\/request \| Heap B\/request \|[\s\S]*\| 4,000 \|/,
  );
});

test("the runtime agent's metrics are measured only in a run that asks for them", () => {
  const heap = metricByName('heap bytes/request');
  assert.equal(measuredIn(DEFAULTS)(heap), false);
  assert.equal(measuredIn({ ...DEFAULTS, runtimeMetrics: true })(heap), true);
  assert.equal(measuredIn(DEFAULTS)(metricByName('CPU µs/request')), true);
});

test('a soak: warm-up growth apart where it settles, then the growth per 10,000 requests with its interval', () => {
  // 2 MB of warm-up over four samples, then 100 bytes per request (1 MB per 10,000), a little noise.
  const samples = Array.from({ length: 12 }, (_, index) => [
    index * 1000,
    10e6 + (index >= 4 ? 2e6 + 100 * index * 1000 + (index % 2) * 1000 : index * 5e5),
  ]);
  const growth = heapGrowth([samples]);
  assert.equal(growth.warmupSamples, 4);
  assert.equal(growth.warmupGrowthBytes, 2e6 + 4e5);
  assert.ok(Math.abs(growth.growthBytesPer10kRequests - 1e6) < 2e4, `${growth.growthBytesPer10kRequests}`);
  assert.ok(growth.interval[0] < 1e6 && growth.interval[1] > 1e6);
  // The same 2 MB of warm-up with no leak after it: warm-up, not a trend.
  const settled = heapGrowth([
    samples.map(([requests], index) => [requests, 10e6 + Math.min(index, 4) * 5e5 + (index % 2) * 1000]),
  ]);
  assert.equal(settled.warmupGrowthBytes, 2e6);
  assert.ok(settled.interval[0] < 0 && settled.interval[1] > 0, 'no leak: the interval holds zero');
  assert.match(
    heapGrowth([samples.slice(0, 3)]).absent,
    /3 heap samples, too few .*lengthen --duration or shorten --soak-every/,
  );
});

test("a soak's interval that is 0, negative, not a number or beyond an hour is refused, naming the fix", () => {
  const names = { variantNames: ['node-http'], scenarioNames: ['hello'] };
  const suite = { variants: ['node-http'], scenarios: ['hello'], connections: [1] };
  assert.deepEqual(validateSuite({ ...suite, soakEvery: 0.5 }, names), []);
  for (const soakEvery of [0, -1, 'x', 4000])
    assert.deepEqual(validateSuite({ ...suite, soakEvery }, names), [
      `soakEvery: ${JSON.stringify(soakEvery)} is not a soak's interval: give the seconds between heap readings, above 0 and at most 3600 (e.g. --soak-every 1, "soakEvery": 1), or leave it out for no soak`,
    ]);
});

test('a soak bounded by a request count: a count that is not a whole number above 0, one without a soak, or an engine that cannot count is refused, naming the fix', () => {
  const names = { variantNames: ['node-http'], scenarioNames: ['hello'] };
  const suite = { variants: ['node-http'], scenarios: ['hello'], connections: [1], soakEvery: 1 };
  assert.deepEqual(validateSuite({ ...suite, soakRequests: 100_000 }, names), []);
  for (const soakRequests of [0, -5, 1.5, 'x'])
    assert.match(
      validateSuite({ ...suite, soakRequests }, names).join('\n'),
      /^soakRequests: .* is not a request count: give the requests after which a soak's measured load stops, a whole number above 0/,
    );
  assert.deepEqual(validateSuite({ ...suite, soakEvery: undefined, soakRequests: 10 }, names), [
    'soakRequests: a request count bounds a soak, and no soak was asked for: give soakEvery too (--soak-every S), or drop soakRequests',
  ]);
  assert.equal(suiteRequest({ suite: 'smoke', 'soak-requests': '500' }).overrides.soakRequests, 500);
  const [spec] = expandSpecs({ variants: ['node-http'], scenarios: ['hello'], connections: [10], options: {} });
  assert.equal(measurementSettings({ ...DEFAULTS, soakEvery: 1, soakRequests: 500 }, spec).soakRequests, 500);
  assert.throws(
    () => engineFor('wrk', 0, 500),
    /"wrk" cannot stop at a request count: drop --soak-requests .* or use autocannon/,
  );
  assert.equal(engineFor('autocannon', 0, 500).name, 'autocannon');
});

test('a soak reads every serving process, each at its own heap level, with one slope; a forged sample list is refused', () => {
  const samples = [0, 1, 2, 3, 4, 5].map((index) => [index * 100, 1e6]);
  assert.equal(runtimeFigures([reading({ heapAfterGc: samples })]).soak.growthBytesPer10kRequests, 0);
  assert.equal(runtimeFigures([reading()]).soak, undefined, 'no soak asked for');
  // Two workers, each keeping 10 bytes per request it served, at heaps 5 MB apart.
  const leaking = (level) => [0, 1, 2, 3, 4, 5].map((index) => [index * 100, level + index * 1000 + (index % 2) * 7]);
  const cluster = runtimeFigures([reading({ heapAfterGc: leaking(1e6) }), reading({ heapAfterGc: leaking(6e6) })]);
  assert.equal(cluster.soak.processes, 2);
  assert.ok(Math.abs(cluster.soak.growthBytesPer10kRequests - 1e5) < 2e3, `${cluster.soak.growthBytesPer10kRequests}`);
  assert.equal(cluster.soak.fit.length, 2, 'their centred sums, one per process, for compare to pool');
  assert.match(readingProblem(reading({ heapAfterGc: [[1, 'x']] })), /malformed heap samples/);
});

test("result.json's schema takes the figures or their absence, and refuses a reading in their place", () => {
  assert.deepEqual(resultProblems(resultWith(runtimeFigures([reading()]))), []);
  assert.deepEqual(resultProblems(resultWith({ absent: 'the server runs on bun, not Node.js' })), []);
  assert.notDeepEqual(resultProblems(resultWith(reading())), []);
});
