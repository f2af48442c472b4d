// What duet costs a server, and whether the change it reports is a single server's change
// (npm run duet-cost): per benchmark, an A/A comparison of this checkout in duet and one in
// sequential mode (each side alone), with the same fixed rounds, give each mode's CPU µs/request
// and req/s, so duet's inflation is a ratio measured in one run; then each injected change (a
// CPU-only one and an allocation-only one, through the servers' calibration switches) is
// measured in both modes, so its duet change stands beside its single-server change. Modes
// alternate, so a slow phase of the machine hits both. A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { compareSides } from '../run-comparison.js';
import { writeComparison } from '../write.js';
import { errors } from '../../core/errors.js';
import { intervalText, microseconds, signedPercent } from '../../core/format.js';
import { openMeasurement } from '../../measurement/context.js';
import { describePinning } from '../../measurement/pinning.js';
import { mean } from '../../stats/index.js';
import { fixedRounds, thisCheckout } from './run-calibration.js';

const MODES = ['duet', 'sequential'];
const CPU = 'CPU µs/request';

// The injections this script knows: the servers' calibration switches (servers/contract/contract.js).
export const INJECTIONS = {
  loops: { variable: 'PERFGATE_INJECT_LOOPS', what: 'CPU-only: division-loop iterations per request' },
  objects: {
    variable: 'PERFGATE_INJECT_OBJECTS',
    what: 'allocation-only: small objects built and dropped per request',
  },
  leak: { variable: 'PERFGATE_INJECT_LEAK', what: 'a leak: bytes kept for good per request' },
};

async function compareFixed({ config, settings, rounds, outDir, label, env }) {
  const request = {
    config,
    sides: { base: thisCheckout('base'), head: thisCheckout('head', env) },
    settings: fixedRounds({ ...settings, mode: label.mode, profile: 'never' }, rounds),
    outDir: join(outDir, label.dir),
  };
  const comparison = await compareSides(await openMeasurement(request), request);
  writeComparison(comparison, request.outDir);
  const [benchmark] = comparison.benchmarks;
  if (benchmark.status !== 'ok') throw errors.calibrationFailed(benchmark.id, benchmark.status, benchmark.reason);
  return { ...benchmark, machine: comparison.machine, pinning: comparison.pinning };
}

const meanOf = (benchmark, key) =>
  mean([...benchmark.samples.base, ...benchmark.samples.head].map((sample) => sample[key]));

/**
 * @param {{config: object, settings: object, rounds: number, injections: {name: string, amount: number}[],
 *   outDir: string, onProgress?: Function}} run  config: a resolved suite of one benchmark
 * @returns {Promise<object>} { id, modes: {duet, sequential}: {cpuMicrosPerRequest, requestsPerSecond},
 *   inflation, injected: [{name, amount, duet: {change, ci}, sequential: {change, ci}}] }
 */
export async function measureDuetCost({ config, settings, rounds, injections, outDir, onProgress = () => {} }) {
  const modes = {};
  let first;
  for (const mode of MODES) {
    onProgress(`A/A, ${mode}, ${rounds} rounds`);
    const benchmark = await compareFixed({ config, settings, rounds, outDir, label: { mode, dir: `aa-${mode}` } });
    first ??= benchmark;
    modes[mode] = {
      cpuMicrosPerRequest: meanOf(benchmark, 'cpuMicrosPerRequest'),
      requestsPerSecond: meanOf(benchmark, 'requestsPerSecond'),
    };
  }
  const injected = [];
  for (const { name, amount } of injections) {
    const env = { [INJECTIONS[name].variable]: String(amount) };
    const byMode = {};
    for (const mode of MODES) {
      onProgress(`${name} ${amount} injected, ${mode}, ${rounds} rounds`);
      const benchmark = await compareFixed({
        config,
        settings,
        rounds,
        outDir,
        label: { mode, dir: `${name}-${amount}-${mode}` },
        env,
      });
      const { change, ci } = benchmark.verdicts[CPU];
      byMode[mode] = { change, ci };
    }
    injected.push({ name, amount, ...byMode });
  }
  return {
    id: first.id,
    machine: `${first.machine.cpuModel} x${first.machine.cores}, Node ${first.machine.node}`,
    pinning: describePinning(first.pinning),
    rounds,
    modes,
    inflation: modes.duet.cpuMicrosPerRequest / modes.sequential.cpuMicrosPerRequest,
    injected,
  };
}

/** The measurements as markdown: duet's inflation, then each injected change in both modes. */
export function duetCostMarkdown(results) {
  const machines = [...new Set(results.map((each) => `${each.machine}, pinning ${each.pinning}`))].join('; ');
  const lines = [
    '## What duet costs a server',
    '',
    `${machines}. A/A comparisons of this checkout with fixed rounds; "alone" is sequential mode (one server at a time on the server cores), "duet" both at once.`,
    '',
    '| benchmark | rounds | CPU µs/request alone | in duet | duet / alone | req/s alone | in duet |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (each) =>
        `| ${each.id} | ${each.rounds} | ${microseconds(each.modes.sequential.cpuMicrosPerRequest)} | ${microseconds(each.modes.duet.cpuMicrosPerRequest)} | ${each.inflation.toFixed(2)}× | ${Math.round(each.modes.sequential.requestsPerSecond)} | ${Math.round(each.modes.duet.requestsPerSecond)} |`,
    ),
    '',
  ];
  const injected = results.flatMap((each) => each.injected.map((injection) => ({ id: each.id, ...injection })));
  if (injected.length)
    lines.push(
      "### An injected change in each mode (CPU µs/request, head's change with its 95 % interval)",
      '',
      '| benchmark | injected | duet | alone (sequential) |',
      '| --- | --- | --- | --- |',
      ...injected.map(
        (each) =>
          `| ${each.id} | ${INJECTIONS[each.name].what}: ${each.amount} | ${signedPercent(each.duet.change)} (${intervalText(each.duet.ci)}) | ${signedPercent(each.sequential.change)} (${intervalText(each.sequential.ci)}) |`,
      ),
      '',
    );
  return lines.join('\n');
}
