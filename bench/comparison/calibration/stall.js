// The stall calibration of compare at a fixed arrival rate (npm run calibrate --stall MS/EVERY):
// tail latency is noisier than CPU, so K A/A comparisons of an r= benchmark and K whose head
// sleeps MS milliseconds on every EVERY-th request (PERFGATE_INJECT_STALL,
// servers/contract/contract.js), per mode, alternating (./injections.js runs and reports them). The
// stall moves p99 latency and barely moves CPU µs/request (a sleep costs no CPU), so what calls it
// is the tail at that rate.
import { parseStall } from '../../../servers/contract/scenarios.js';
import { isOpen, parseLoadTag } from '../../../site/shared/load-point.js';

// The family of ./injections.js: the tail moves, the CPU should not; no runtime agent.
export const STALL = Object.freeze({
  title: 'tail latency',
  shown: ['p99 latency', 'p99.9 latency', 'CPU µs/request'],
  runtimeMetrics: false,
});

// The --stall flag as the server's variable: "20ms/200" -> { ms: 20, every: 200, variable: "20/200" }.
export function stallOption(text) {
  const stall = parseStall(text);
  return { ...stall, variable: `${stall.ms}/${stall.every}` };
}

// What is wrong with a --stall flag, or null.
export function stallProblem(text) {
  try {
    parseStall(text);
    return null;
  } catch (error) {
    return `--stall: ${error.message}`;
  }
}

// A stall calibrates the tail at a fixed rate: a benchmark's load must be an offered rate.
export function stallBenchmarkProblem(benchmark) {
  const tag = benchmark.split(':')[2] ?? '';
  const point = /^r=/.test(tag) ? parseLoadTag(tag) : null;
  return point && isOpen(point)
    ? null
    : `--benchmark: "${benchmark}" is not at an offered rate: --stall calibrates the tail at a fixed arrival rate, give variant:scenario:r=RATE (and --engine vegeta)`;
}

// The injections of a stall calibration (./injections.js): one, the stall.
export const stallInjections = (stall) => [
  {
    kind: 'stall',
    what: `a ${stall.ms} ms stall every ${stall.every} requests`,
    inject: { PERFGATE_INJECT_STALL: stall.variable },
  },
];
