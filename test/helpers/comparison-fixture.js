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
