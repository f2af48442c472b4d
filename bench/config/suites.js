// The named suites (`npm run bench -- --suite <name>`): the study suites re-run published
// Node.js server load studies, each with the study's tiers and settings (README: Named suites).
import os from 'node:os';
import { DEFAULT_ENGINE } from '../measurement/engines/seam.js';
import { OPTION_DEFAULTS } from '../../servers/contract/options.js';
import { SYSTEM } from '../measurement/runtime/spec.js';

const PROXY_BASELINE_TIERS = [50, 100, 150, 200, 500, 1000, 2000, 5000, 10000, 20000];

// autocannon worker threads for suites whose fastest servers outrun one client core: one per
// core the pinning gives the client (half the cores). With 2 cores the client has one core,
// where worker threads only add overhead: the main thread then, and saturation is flagged.
const CLIENT_WORKERS = os.availableParallelism() >= 4 ? Math.floor(os.availableParallelism() / 2) : 0;

// The relative trend's pinned baseline of perfgate's own bench-main (the frameworks suite's `trend`).
export const PERFGATE_BASELINE = 'c2e2f795dcff2322fda3a88e66fb6d970f6f1378';

export const SUITES = {
  // What `npm run bench` runs with no arguments: quick, and enough to see the frameworks apart.
  default: {
    variants: ['node-http', 'express', 'fastify'],
    scenarios: ['hello', 'json'],
    connections: [10, 100],
    duration: 5,
    warmup: 1,
  },
  // The smallest real run, for tests and for checking a machine.
  smoke: {
    variants: ['node-http'],
    scenarios: ['hello', 'json'],
    connections: [4],
    duration: 1,
    warmup: 0.5,
  },
  // Study 1: an Express proxy in front of a mock AI backend, each measured directly.
  'proxy-baseline': {
    variants: ['mock-backend', 'express'],
    scenarios: ['proxy'],
    connections: PROXY_BASELINE_TIERS,
    duration: 10,
    warmup: 2,
    timeout: 5,
    options: { backendDelayMs: [0, 500], logging: [false, true] },
  },
  // Study 1 in the open model: its tiers as offered rates (req/s) on a fixed schedule, so that where
  // timeouts begin reads beside the closed loop's (the run's table says where, per model).
  'proxy-baseline-open': {
    variants: ['mock-backend', 'express'],
    scenarios: ['proxy'],
    rates: PROXY_BASELINE_TIERS,
    engine: 'vegeta',
    duration: 10,
    warmup: 2,
    timeout: 5,
    options: { backendDelayMs: [0, 500], logging: [false, true] },
  },
  // Study 1's question for Node users, "is fetch slow for a proxy?": the same proxies with each
  // outgoing client of the proxyClient option (servers/contract/forward.js), at one connection (the
  // per-request floor) and at the study's first tier. proxy-baseline runs the default, http.
  'proxy-clients': {
    variants: ['express', 'node-http'],
    scenarios: ['proxy'],
    connections: [1, 50],
    duration: 5,
    warmup: 1,
    options: { proxyClient: ['http', 'undici', 'fetch'] },
  },
  // Study 3: one process vs cluster vs worker_threads, on CPU-bound work (fibonacci) and on
  // IO-bound work (waiting on the mock backend through the proxy route, and on a timer).
  // The multi-core variants start one worker per CPU the server is pinned to
  // (the config field server.workers overrides): on 2 cores that is 1, as the client takes the other.
  'concurrency-models': {
    variants: ['node-http', 'node-cluster', 'node-workers'],
    scenarios: ['cpu', 'proxy', 'io'],
    connections: [10, 100],
    duration: 8,
    warmup: 2,
    options: { cpuWork: 'fib:30', backendDelayMs: 100 },
  },
  // Study 4: the frameworks table: its ping, query and body scenarios (hello and json, query,
  // echo) and the static-file scenario of its Express comparison; the study's order first,
  // then Express 4, Express on Bun and the node:http baseline.
  // The fastest servers can saturate one autocannon core (CLIENT_WORKERS); rows where the
  // client was saturated say so.
  frameworks: {
    variants: [
      'uws',
      'hyper-express',
      'ultimate-express',
      'h3',
      'fastify',
      'hono',
      'koa',
      'express',
      'express4',
      'express-bun',
      'node-http',
    ],
    scenarios: ['hello', 'json', 'query', 'echo', 'static'],
    connections: [100],
    duration: 5,
    warmup: 1,
    workers: CLIENT_WORKERS,
    // bench-main's relative trend (npm run trend): two scenarios per variant keep a shard's duets
    // to a few minutes. perfgate has no release tag yet, so its baseline is pinned to a commit of
    // main: c2e2f79, the end of round 3's first session (issues 24-29 landed, 630/630 tests from a
    // clean clone), whose servers run under today's harness as they are: the describe step, and
    // express-bun as the express variant on the Bun runtime (round 2's end ran a Bun from the `bun`
    // devDependency, which a side's `npm ci --ignore-scripts` does not set up, so its express-bun
    // shard would compare two Bun builds or none). After the first `v*` tag: drop `baseline` (the
    // default is the release tag) and run bench-main with `reanchor`.
    trend: { benchmarks: ['hello', 'json'], baseline: { commit: PERFGATE_BASELINE } },
  },
  // Study 5: raw node:http alone vs nginx load-balancing over 2 and 3 pinned node:http
  // processes, on an empty handler and on the 180000-division loop, at the study's tiers.
  // nginx's warm-up is the warm-up load. With fewer server cores than processes they share
  // cores (each nginx-upstream run's log says which): on 2 cores all share the server core.
  multicore: {
    variants: ['node-http', 'nginx-upstream-2', 'nginx-upstream-3'],
    scenarios: ['hello', 'cpu'],
    connections: [1000, 3000, 5000, 7000, 8000],
    duration: 10,
    warmup: 3,
  },
  // Study 2: koa with a pg pool vs a servlet on Tomcat with a JDBC pool: one aggregate query
  // against a PostgreSQL the harness starts (c=30, 60), then a pure 2 s wait (c=300, 600,
  // 1000); peak RSS side by side. Tomcat keeps its default limits (200 threads) unless
  // server.tomcatMaxThreads / server.tomcatMaxConnections are set, as the study raised them.
  'node-vs-java': {
    variants: ['koa-pg', 'tomcat'],
    scenarios: ['db', 'io'],
    connections: [30, 60],
    scenarioConnections: { io: [300, 600, 1000] },
    duration: 10,
    warmup: 2,
    options: { ioDelayMs: 2000 },
  },
  // What a Node.js upgrade (or a move to Bun) does to a framework: the default suite's variants
  // on every Node.js major the npm registry serves from 20 on, and Bun (bench/measurement/runtime/).
  runtimes: {
    variants: ['node-http', 'express', 'fastify'],
    scenarios: ['hello', 'json'],
    connections: [100],
    duration: 5,
    warmup: 1,
    runtimes: ['node@20', 'node@22', 'node@24', 'node@26', 'bun'],
  },
};

// Settings a suite does not give.
export const DEFAULTS = {
  engine: DEFAULT_ENGINE,
  duration: 5,
  warmup: 1,
  pipelining: 1,
  rate: 0,
  timeout: 10,
  repetitions: 1,
  workers: 0,
  readyTimeout: 15,
  runtimeMetrics: false,
  options: OPTION_DEFAULTS, // servers/contract/options.js: the one home of the scenario options' defaults
  runtimes: [SYSTEM], // the Node.js that runs perfgate
  commands: {},
};
