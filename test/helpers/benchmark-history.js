// Builds github-action-benchmark gh-pages histories (dev/bench/data.js) in the naming styles and
// units of the action's tools, as its extractors write them (src/extract.ts and the snapshots of
// its test/data/extract fixtures): so the site's tests need no checked-in copies of real files.
import { createHash } from 'node:crypto';

// One representative suite per tool: the action's example suite name, bench names, units,
// range and extra texts.
export const TOOL_SUITES = {
  go: {
    suite: 'Go Benchmark',
    benches: [
      { name: 'BenchmarkFib10 - ns/op', unit: 'ns/op', base: 325, extra: '5000000 times\n8 procs' },
      { name: 'BenchmarkFib10 - B/op', unit: 'B/op', base: 64, extra: '5000000 times\n8 procs' },
      { name: 'BenchmarkFib10 - allocs/op', unit: 'allocs/op', base: 2, extra: '5000000 times\n8 procs' },
      { name: 'BenchmarkFib/my_tabled_benchmark_-_20', unit: 'ns/op', base: 40537.123, extra: '30000 times\n8 procs' },
    ],
  },
  cargo: {
    suite: 'Rust Benchmark',
    benches: [
      { name: 'bench_fib_10', unit: 'ns/iter', base: 135, range: '± 24' },
      { name: 'bench_fib_20', unit: 'ns/iter', base: 18149, range: '± 755' },
    ],
  },
  pytest: {
    suite: 'Python Benchmark with pytest-benchmark',
    benches: [
      {
        name: 'bench.py::test_fib_10',
        unit: 'iter/sec',
        base: 41513.27,
        range: 'stddev: 0.000006175090189861328',
        extra: 'mean: 24.08868133322941 usec\nrounds: 38',
      },
    ],
  },
  benchmarkjs: {
    suite: 'Benchmark.js Benchmark',
    benches: [
      { name: 'fib(10)', unit: 'ops/sec', base: 1431759, range: '±0.74%', extra: '93 samples' },
      {
        name: 'createObjectBuffer with 200 comments',
        unit: 'ops/sec',
        base: 81.61,
        range: '±1.70%',
        extra: '69 samples',
      },
    ],
  },
  catch2: {
    suite: 'Catch2 Benchmark',
    benches: [{ name: 'Fibonacci 20', unit: 'us', base: 41.731, range: '± 3.256', extra: '100 samples\n2 iterations' }],
  },
  julia: {
    suite: 'Julia benchmark result',
    benches: [
      {
        name: 'fib/20',
        unit: 'ns',
        base: 31028,
        extra:
          'gctime=0\nmemory=0\nallocs=0\nparams: {"gctrial":true,"time_tolerance":0.05,"samples":10000,"evals":1,"gcsample":false,"seconds":5,"overhead":0,"memory_tolerance":0.01}',
      },
    ],
  },
  benchmarkdotnet: {
    suite: 'Benchmark.Net Benchmark',
    benches: [{ name: 'Sample.Benchmarks.Fib20', unit: 'ns', base: 51.52008151549559, range: '± 0.7903737021529575' }],
  },
  jmh: {
    suite: 'JMH Benchmark',
    benches: [
      {
        name: 'org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere ( {"paramA":"17","paramB":"33"} )',
        unit: 'ops/s',
        base: 3376238873.1228185,
        extra: 'iterations: 3\nforks: 1\nthreads: 1',
      },
    ],
  },
  // Custom files are hand-written JSON: some give the values as numeric strings.
  customSmallerIsBetter: {
    suite: 'My Custom Smaller Is Better Benchmark',
    strings: true,
    benches: [
      {
        name: 'My Custom Smaller Is Better Benchmark - Memory Used',
        unit: 'Megabytes',
        base: 100,
        range: '3',
        extra: 'Value for Tooltip: 25\nOptional Num #2: 100\nAnything Else!',
      },
      { name: 'My Custom Smaller Is Better Benchmark - CPU Load', unit: 'Percent', base: 50, range: '5%' },
    ],
  },
  customBiggerIsBetter: {
    suite: 'My Custom Bigger Is Better Benchmark',
    benches: [{ name: 'My Custom Bigger Is Better Benchmark - Throughput', unit: 'req/s', base: 70 }],
  },
};

const START = Date.UTC(2025, 0, 6, 9, 0);
const HOUR = 3600_000;

// A small seeded generator (mulberry32): the same history on every run of the tests.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha = (text) => createHash('sha1').update(text).digest('hex');
const round = (value) => Number(value.toPrecision(6));

export function commitFor(index, { repoUrl = 'https://github.com/octo-org/fib-bench', message } = {}) {
  const id = sha(`commit ${index}`);
  return {
    author: { email: 'ada@example.com', name: 'Ada Lovelace', username: 'ada' },
    committer: { email: 'noreply@github.com', name: 'GitHub', username: 'web-flow' },
    distinct: true,
    id,
    message:
      message ??
      `Speed up fib, part ${index}\n\nA longer body that explains the change in more words than fit on one line of a tooltip, so it must wrap.`,
    timestamp: new Date(START + index * 24 * HOUR).toISOString().replace('.000Z', '+00:00'),
    tree_id: sha(`tree ${index}`),
    url: `${repoUrl}/commit/${id}`,
  };
}

// tools: keys of TOOL_SUITES; commits: how many; rerunEvery: every n-th commit is run twice;
// step: { at, factor } multiplies every value from commit `at` on (a change point to find).
export function buildHistory({ tools, commits, rerunEvery = 0, step = null, noise = 0.02, seed = 1, repoUrl } = {}) {
  const next = random(seed);
  const entries = {};
  for (const tool of tools) {
    const { suite, benches, strings } = TOOL_SUITES[tool];
    const runs = [];
    for (let index = 0; index < commits; index += 1) {
      const times = rerunEvery && index % rerunEvery === rerunEvery - 1 ? 2 : 1;
      for (let again = 0; again < times; again += 1) {
        const factor = step && index >= step.at ? step.factor : 1;
        runs.push({
          commit: commitFor(index, { repoUrl }),
          date: START + index * 24 * HOUR + HOUR + again * HOUR,
          tool,
          benches: benches.map(({ base, ...bench }) => {
            const value = round(base * factor * (1 + noise * (2 * next() - 1)));
            return { ...bench, value: strings ? String(value) : value };
          }),
        });
      }
    }
    entries[suite] = runs;
  }
  return {
    lastUpdate: START + commits * 24 * HOUR,
    repoUrl: repoUrl ?? 'https://github.com/octo-org/fib-bench',
    entries,
  };
}

// The file as the action writes it.
export const toDataScript = (history) => `window.BENCHMARK_DATA = ${JSON.stringify(history, null, 2)}`;
