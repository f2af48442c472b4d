// The trend lines of a github-action-benchmark data file (window.BENCHMARK_DATA): one series per
// suite and bench name, oldest first, each point with the run's commit. A bench missing from a
// run is a gap, not a zero: the series simply has no point there.

import { numericValue } from '../../../site/shared/benchmark-data.js';
import { hostedSuiteName, isHostedRun } from '../../../site/shared/runner.js';

// [{ suite, bench, unit, tool, points: [{ value, commit, date }] }] in the data's order. A hosted
// runner's runs are a suite of their own, as on the site (site/shared/runner.js).
export function seriesOf(data) {
  const all = [];
  for (const [name, runs] of Object.entries(data.entries)) {
    const byName = new Map();
    for (const run of runs) {
      const suite = isHostedRun(run.benches) ? hostedSuiteName(name) : name;
      for (const bench of run.benches) {
        const value = numericValue(bench.value);
        if (value === null) continue;
        const key = `${suite}\u0000${bench.name}`;
        if (!byName.has(key))
          byName.set(key, { suite, bench: bench.name, unit: bench.unit, tool: run.tool, points: [] });
        const line = byName.get(key);
        line.unit = bench.unit;
        line.tool = run.tool;
        line.points.push({ value, commit: run.commit, date: run.date });
      }
    }
    all.push(...byName.values());
  }
  return all;
}
