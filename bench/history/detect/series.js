// The trend lines of a github-action-benchmark data file (window.BENCHMARK_DATA): one series per
// suite and bench name, oldest first, each point with the run's commit. A bench missing from a
// run is a gap, not a zero: the series simply has no point there.

import { numericValue } from '../../../site/shared/benchmark-data.js';

// [{ suite, bench, unit, tool, points: [{ value, commit, date }] }] in the data's order.
export function seriesOf(data) {
  const all = [];
  for (const [suite, runs] of Object.entries(data.entries)) {
    const byName = new Map();
    for (const run of runs) {
      for (const bench of run.benches) {
        const value = numericValue(bench.value);
        if (value === null) continue;
        if (!byName.has(bench.name))
          byName.set(bench.name, { suite, bench: bench.name, unit: bench.unit, tool: run.tool, points: [] });
        const line = byName.get(bench.name);
        line.unit = bench.unit;
        line.tool = run.tool;
        line.points.push({ value, commit: run.commit, date: run.date });
      }
    }
    all.push(...byName.values());
  }
  return all;
}
