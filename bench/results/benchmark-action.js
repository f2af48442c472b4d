// github-action-benchmark's input format (shared/formats.md): throughput in a
// customBiggerIsBetter file; latency, CPU per request, errors and memory in a
// customSmallerIsBetter file (the metrics and their directions: bench/results/metrics.js).
// Names "<id> - <metric>" are the identity of a trend line: never change them lightly.
import { describeServerSettings } from '../config/server-settings.js';
import { METRIC_REGISTRY, summaryValue } from './metrics.js';
import { describePinning } from '../measurement/pinning.js';
import { SYSTEM } from '../measurement/runtime/spec.js';
import { loadFacts, loadPointOf } from '../../site/shared/load-point.js';

// The two chart groups of a history, named after the project (its config's `name`), so that the
// site shows a project's trend under its own name; perfgate's own runs go by "perfgate".
export const suiteNames = (project = 'perfgate') => ({
  bigger: `${project} throughput`,
  smaller: `${project} latency`,
});
export const SUITE_NAMES = suiteNames();
// The relative trend's two suites (bench/comparison/trend/: head / pinned baseline, one per direction), named
// after the project the same way, so a project's relative lines sit beside its absolute ones.
export const trendSuiteNames = (project = 'perfgate') => {
  const names = suiteNames(project);
  return { bigger: `${names.bigger} vs baseline`, smaller: `${names.smaller} vs baseline` };
};
export const TREND_SUITES = trendSuiteNames();
export const TOOLS = { bigger: 'customBiggerIsBetter', smaller: 'customSmallerIsBetter' };

// The server's runtime as asked for (the site's runtime filter) and as installed; none in a
// result made before runtimes existed.
function runtimeFacts(benchmark, result) {
  const asked = benchmark.runtime ?? SYSTEM;
  const runtime = result.runtimes?.find((each) => each.spec === asked);
  return runtime ? [`runtime: ${asked}`, `runtime version: ${runtime.name} ${runtime.version}`] : [];
}

// The facts the trend site reads back ("key: value" lines; the action keeps them as they are).
function extraText(benchmark, result) {
  const { summary } = benchmark;
  return [
    `variant: ${benchmark.variant}`,
    `scenario: ${benchmark.scenario}`,
    ...loadFacts(loadPointOf(benchmark)),
    `options: ${benchmark.tags.join(',') || 'default'}`,
    ...(benchmark.reference ? ['reference: yes'] : []),
    `samples: ${summary.requests.samples}`,
    `runs: ${summary.runs}`,
    `timeouts %: ${summary.timeoutPct}`,
    `errors %: ${summary.errorPct}`,
    `server cpu %: ${summary.serverCpuPct}`,
    `cpu µs/request: ${summary.cpuMicrosPerRequest ?? 'n/a'}`,
    `engine: ${summary.engine ?? result.config.engine}`,
    ...(result.config?.rate ? [`rate: ${result.config.rate} req/s per load`] : []),
    `cpu: ${result.machine.cpuModel} x${result.machine.cores}`,
    `pinning: ${describePinning(result.pinning)}`,
    `node: ${result.machine.node}`,
    ...runtimeFacts(benchmark, result),
    `client saturated: ${summary.clientSaturated ? 'yes' : 'no'}`,
    `server settings: ${describeServerSettings(result.config?.server)}`,
  ].join('\n');
}

// Every metric of the registry (bench/results/metrics.js) goes to the file of its direction.
export function toBenchmarkAction(result) {
  const measured = result.benchmarks.filter((benchmark) => benchmark.status === 'ok');
  const files = { bigger: [], smaller: [] };
  for (const benchmark of measured) {
    const { summary, id } = benchmark;
    const extra = extraText(benchmark, result);
    for (const metric of METRIC_REGISTRY) {
      const value = summaryValue(metric, summary);
      if (value === null) continue; // e.g. CPU µs/request without requests, heap bytes/request on Go
      files[metric.direction].push({
        name: `${id} - ${metric.name}`,
        unit: metric.unit,
        value,
        ...(metric.rangeFromSummary ? { range: metric.rangeFromSummary(summary) } : {}),
        extra,
      });
    }
  }
  return files;
}
