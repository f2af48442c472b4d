// Seeded duet rounds for simulations of compare's adaptive rule (bench/stats/METHOD.md): per round, the
// head/base log ratio of CPU µs/request is the true change plus normal noise, req/s moves the other way with
// noise correlated to it (-0.9: a round that costs more CPU per request serves fewer; the ten quiet A/A suites
// of 2 s rounds measured -0.75 to -0.96 per benchmark, so req/s adds little evidence of its own), and a share
// of rounds is hit by a burst (three times the noise). Each round takes
// `roundSeconds` of a fake clock, so the budget counts rounds as on the machine.
import { compareInterleaved } from '../../bench/comparison/rounds.js';
import { measureConfirmed } from '../../bench/comparison/confirm.js';
import { defaultBands } from '../../bench/results/metrics.js';
import { COMPARE_DEFAULTS, seededRandom } from '../../bench/stats/index.js';

export function simulatedRun({
  change,
  sd = 0.027,
  correlation = -0.9,
  bursts = 0.1,
  roundSeconds = 6,
  seed,
  judging = {},
}) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let clock = 0;
  const sample = (cpu, requests) => ({
    requestsPerSecond: 10_000 * requests,
    p99LatencyMs: 10 / requests,
    cpuMicrosPerRequest: 100 * cpu,
    errors: 0,
    timeouts: 0,
    clientSaturated: false,
  });
  const measureRound = async () => {
    clock += roundSeconds * 1000;
    const scale = random() < bursts ? 3 : 1;
    const cpuNoise = normal();
    const requestsNoise = correlation * cpuNoise + Math.sqrt(1 - correlation ** 2) * normal();
    const logChange = Math.log1p(change);
    return {
      base: sample(1, 1),
      head: sample(Math.exp(logChange + sd * scale * cpuNoise), Math.exp(-logChange + sd * scale * requestsNoise)),
    };
  };
  return compareInterleaved({
    ...judging,
    measureRound,
    now: () => clock,
    thresholds: defaultBands(),
    interval: 'paired',
    budgetMs: COMPARE_DEFAULTS.budgetSeconds * 1000,
    minRounds: COMPARE_DEFAULTS.minRounds,
    maxRounds: COMPARE_DEFAULTS.maxRounds,
  });
}

// One benchmark as compare judges it: a run, and a second one when the first calls it slower.
export const simulatedBenchmark = ({ seed, confirm = true, ...noise }) =>
  measureConfirmed((attempt, judging) => simulatedRun({ ...noise, judging, seed: seed * 2 + attempt }), { confirm });

// Rounds of one second each of a fake clock from a script of head/base ratios of CPU µs/request;
// req/s moves the other way by the same ratio, p99 with it.
export function scriptedRounds(ratios) {
  let clock = 0;
  const measureRound = async (round) => {
    clock += 1000;
    const ratio = ratios[round - 1];
    const sample = (cpu) => ({
      requestsPerSecond: 1e6 / cpu,
      p99LatencyMs: cpu / 100,
      cpuMicrosPerRequest: cpu,
      errors: 0,
      timeouts: 0,
      clientSaturated: false,
    });
    return { base: sample(100), head: sample(100 * ratio) };
  };
  return { measureRound, now: () => clock };
}
