// The parts of a comparison.json that report and comment tests do not vary: compare's default
// settings, a stand-in machine and no pinning. A test adds its sides, benchmarks and gate.
import { defaultBands } from '../../bench/results/metrics.js';

export const comparisonFixture = () => ({
  settings: {
    thresholds: defaultBands(),
    interval: 'paired',
    minRounds: 5,
    maxRounds: 60,
    budgetSeconds: 180,
    roundSeconds: 3,
    warmupSeconds: 1,
  },
  machine: { cpuModel: 'cpu', cores: 2, node: 'v22', kernel: 'k' },
  pinning: { method: 'none', reason: 'test' },
});

// A whole comparison.json of main against a branch: the fixture with these benchmarks and gate.
export const wholeComparison = (benchmarks, gate) => ({
  ...comparisonFixture(),
  format: 'perfgate-comparison',
  version: 1,
  sides: { base: { description: 'main' }, head: { description: 'branch' } },
  benchmarks,
  gate,
});
