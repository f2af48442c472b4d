// github-action-benchmark's input format (its README, "customBiggerIsBetter"): throughput in a
// customBiggerIsBetter file, latency, errors and memory in a customSmallerIsBetter file.
// Names "<id> - <metric>" are the identity of a trend line: never change them lightly.
import { describeServerSettings } from '../config/server-settings.js';
import { describePinning } from '../pinning.js';

export const SUITE_NAMES = { bigger: 'perfgate throughput', smaller: 'perfgate latency' };
export const TOOLS = { bigger: 'customBiggerIsBetter', smaller: 'customSmallerIsBetter' };

const MB = 1024 * 1024;

// The facts the trend site reads back ("key: value" lines; the action keeps them as they are).
export function extraText(benchmark, result) {
  const { summary } = benchmark;
  return [
    `variant: ${benchmark.variant}`,
    `scenario: ${benchmark.scenario}`,
    `connections: ${benchmark.connections}`,
    `options: ${benchmark.tags.join(',') || 'default'}`,
    `samples: ${summary.requests.samples}`,
    `runs: ${summary.runs}`,
    `timeouts %: ${summary.timeoutPct}`,
    `errors %: ${summary.errorPct}`,
    `server cpu %: ${summary.serverCpuPct}`,
    `cpu: ${result.machine.cpuModel} x${result.machine.cores}`,
    `pinning: ${describePinning(result.pinning)}`,
    `node: ${result.machine.node}`,
    `client saturated: ${summary.clientSaturated ? 'yes' : 'no'}`,
    `server settings: ${describeServerSettings(result.config?.server)}`,
  ].join('\n');
}

const spread = (summary) => (summary.requests.mean > 0 ? `± ${((100 * summary.requests.stddev) / summary.requests.mean).toFixed(1)}%` : undefined);

export function toBenchmarkAction(result) {
  const measured = result.benchmarks.filter((benchmark) => benchmark.status === 'ok');
  const bigger = [];
  const smaller = [];
  for (const benchmark of measured) {
    const { summary, id } = benchmark;
    const extra = extraText(benchmark, result);
    bigger.push({ name: `${id} - req/s`, unit: 'req/s', value: summary.requests.mean, range: spread(summary), extra });
    smaller.push(
      { name: `${id} - p50 latency`, unit: 'ms', value: summary.latencyMs.p50, extra },
      { name: `${id} - p99 latency`, unit: 'ms', value: summary.latencyMs.p99, extra },
      { name: `${id} - error %`, unit: '%', value: summary.errorPct, extra },
      { name: `${id} - peak RSS`, unit: 'MB', value: Math.round((10 * summary.peakRssBytes) / MB) / 10, extra },
    );
  }
  return { bigger, smaller };
}
