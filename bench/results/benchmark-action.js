// github-action-benchmark's input format (shared/formats.md): throughput in a
// customBiggerIsBetter file; latency, CPU per request, errors and memory in a
// customSmallerIsBetter file (the metrics and their directions: bench/results/metrics.js).
// Names "<id> - <metric>" are the identity of a trend line: never change them lightly.
import { describeServerSettings } from '../config/server-settings.js';
import { METRIC_REGISTRY, metricByName, summaryValue } from './metrics.js';
import { describePinning } from '../measurement/pinning.js';
import { SYSTEM } from '../measurement/runtime/spec.js';
import { loadFacts, loadPointOf } from '../../site/shared/load-point.js';
import { runnerFacts } from '../../site/shared/runner.js';
import { kneeSuiteName, suiteNames, trendSuiteNames } from '../../site/shared/suite-names.js';

// The chart groups' names live with the site, which reads the project back from them.
export { kneeSuiteName, suiteNames, trendSuiteNames };
export const SUITE_NAMES = suiteNames();
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
    ...runnerFacts(result.machine),
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

const rateText = (rate) => `${rate} req/s`;
// The knee's interval: the highest rate that held to the lowest that did not.
const kneeRange = ([held, broke]) => (broke === null ? `≥ ${rateText(held)}` : `${held}–${rateText(broke)}`);

// The facts of a knee line (site/shared/bench-name.js reads variant, scenario, options, runtime).
function kneeExtra({ about, interval, clientBound, steps, stoppedBy, measured }, { engine, machine }) {
  const broke = interval[1];
  return [
    `variant: ${about.variant}`,
    `scenario: ${about.scenario}`,
    `options: ${about.tags.join(',') || 'default'}`,
    ...(about.runtime ? [`runtime: ${about.runtime}`] : []),
    `knee interval: ${kneeRange(interval)}`,
    `upper end: ${broke === null ? 'no rate tried broke an SLO' : clientBound ? `the client could not hold ${rateText(broke)}` : `an SLO broke at ${rateText(broke)}`}`,
    `slo: ${(measured[0]?.judged ?? []).map((each) => `${each.metric} ${each.bound}`).join(', ')}`,
    `search: ${steps.map((step) => `${step.rate} ${step.outcome}`).join(', ')} (stopped by ${stoppedBy})`,
    `engine: ${engine}`,
    `cpu: ${machine.cpuModel} x${machine.cores}`,
    ...runnerFacts(machine),
    `node: ${machine.node}`,
  ].join('\n');
}

/**
 * bench --find-knee's knees (bench/measurement/knee.js findKnees) as customBiggerIsBetter entries,
 * "<benchmark without its load tag> - knee rate", its interval in `range`: one per knee found.
 * @param {{engine: string, machine: object}} run  the search's engine and machineInfo()
 */
export function kneeEntries(knees, run) {
  const metric = metricByName('knee rate');
  return knees
    .filter((each) => each.about && typeof each.knee === 'number')
    .map((each) => ({
      name: `${each.benchmark} - ${metric.name}`,
      unit: metric.unit,
      value: each.knee,
      range: kneeRange(each.interval),
      extra: kneeExtra(each, run),
    }));
}
