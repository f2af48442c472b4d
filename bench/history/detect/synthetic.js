// Synthetic benchmark histories with known steps, for the tests of change-point detection and
// for measuring it (scripts/measure-detect.mjs): normal noise of a given coefficient of
// variation around a level that steps by a factor at known runs, optionally with bursts (a run
// now and then loses 20-30 %, as bench/stats/METHOD.md saw on the shared machine).
import { seededRandom } from '../../stats/prng.js';

// steps: [{ at, factor }]; bursts: the probability that a run is hit by one.
export function syntheticSeries({ length, mean = 10_000, cv = 0.04, steps = [], bursts = 0, seed = 1 }) {
  const random = seededRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const values = [];
  let level = mean;
  for (let i = 0; i < length; i++) {
    for (const step of steps) if (step.at === i) level *= step.factor;
    const burst = random() < bursts ? 1 - (0.2 + 0.1 * random()) : 1;
    values.push(level * (1 + cv * gaussian()) * burst);
  }
  return values;
}

// A fake commit sha for run i, stable across calls.
export const syntheticSha = (i) => (i + 1).toString(16).padStart(40, 'c');

// window.BENCHMARK_DATA holding the given series: { [suite]: { tool, benches: { [name]: values } } }.
export function syntheticData(suites, { repoUrl = 'https://github.com/perf/gate', start = Date.UTC(2026, 0, 1) } = {}) {
  const entries = {};
  for (const [suite, { tool, benches }] of Object.entries(suites)) {
    const length = Math.max(...Object.values(benches).map((values) => values.length));
    entries[suite] = Array.from({ length }, (_, i) => ({
      commit: {
        author: { email: 'dev@example.com', name: 'dev', username: 'dev' },
        committer: { email: 'dev@example.com', name: 'dev', username: 'dev' },
        distinct: true,
        id: syntheticSha(i),
        message: `change ${i}`,
        timestamp: new Date(start + i * 3_600_000).toISOString(),
        tree_id: 'f'.repeat(40),
        url: `${repoUrl}/commit/${syntheticSha(i)}`,
      },
      date: start + i * 3_600_000,
      tool,
      benches: Object.entries(benches)
        .filter(([, values]) => i < values.length)
        .map(([name, values]) => ({ name, value: values[i], unit: tool === 'customBiggerIsBetter' ? 'req/s' : 'ms' })),
    }));
  }
  return { lastUpdate: start, repoUrl, entries };
}
