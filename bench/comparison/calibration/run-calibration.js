// One calibration of compare's verdicts on one benchmark (npm run calibrate): each injected
// slowdown sized from the server's CPU cost and corrected by duet checks, then K A/A and K
// injected comparisons per size and mode, alternating, each kept on disk with its rounds; with
// --neighbour, a CPU hog on the server cores during every comparison, and with --tenant a
// tenant-like neighbour on all cores (tenant.js).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareSides } from '../run-comparison.js';
import { sideOf } from '../sides.js';
import { writeComparison } from '../write.js';
import { errors } from '../../core/errors.js';
import { openMeasurement } from '../../measurement/context.js';
import { DECIDING_METRICS } from '../../results/metrics.js';
import { mean } from '../../stats/index.js';
import {
  calibrationMarkdown,
  correctedLoops,
  expectedChange,
  fittedLoops,
  loopsForSlowdown,
  measureLoopSeconds,
  pooledChange,
  summarizeTrials,
  trialOutcome,
} from './trials.js';
import { describeNeighbour, withNeighbour } from './neighbour.js';
import { describeTenant } from './tenant.js';

// Fixed-length runs that size the slowdown and check its size; not part of the statistics.
const PROBE_ROUNDS = 3;
// A check's change is noisy (±3 % in 6 rounds here): over six calibrations the trials achieved 0.6 % more than
// their checks' fit on average (-0.9 to +1.2 %), so a "3 %" size was often near 4 %; 12 rounds halve the variance.
const CHECK_ROUNDS = 12;
const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const thisCheckout = (label, env) => ({
  ...sideOf(
    label,
    projectRoot,
    env
      ? `this checkout, injected: ${Object.entries(env)
          .map(([name, value]) => `${name}=${value}`)
          .join(', ')}`
      : 'this checkout',
    projectRoot,
  ),
  env,
});

// The longest a comparison can take (two runs, each to its budget or its rounds, every round a
// fresh pair of servers): the neighbour's own timeout, so that it stops by itself in any case.
const comparisonBoundSeconds = (settings, config) =>
  2 * Math.min(settings.budgetSeconds, settings.maxRounds * (config.duration + config.warmup + 30)) + 300;

// inject: the head's calibration variables (servers/contract/contract.js), or none for A/A.
export async function compareOnce({ config, settings, outDir, inject, label, neighbour }) {
  const sides = { base: thisCheckout('base'), head: thisCheckout('head', inject) };
  const request = { config, sides, settings, outDir: join(outDir, label) };
  // The neighbour goes on the server cores of this comparison's pinning.
  const measurement = await openMeasurement(request);
  const comparison = await withNeighbour(
    measurement.plan,
    { ...neighbour, timeoutSeconds: comparisonBoundSeconds(settings, config) },
    () => compareSides(measurement, request),
  );
  // Every trial's rounds and samples stay on disk, so a rate can be checked against its data.
  writeComparison(comparison, join(outDir, label));
  const [benchmark] = comparison.benchmarks;
  if (benchmark.status !== 'ok') throw errors.calibrationFailed(benchmark.id, benchmark.status, benchmark.reason);
  return { comparison, benchmark };
}

const injectedLoops = (loops) => (loops ? { PERFGATE_INJECT_LOOPS: String(loops) } : undefined);

// A sizing run: a fixed number of rounds, never confirmed (its change is what is wanted, not a verdict).
export const fixedRounds = (settings, rounds) => ({
  ...settings,
  minRounds: rounds,
  maxRounds: rounds,
  budgetSeconds: 24 * 3600,
  confirm: false,
});
const pct = (fraction) => `${(fraction * 100).toFixed(1)} %`;
const sizeLabel = (slowdown) => `${+(slowdown * 100).toFixed(2)}pct`;

// The server's CPU cost from a duet probe, and this core's loop speed: what every size starts from; and
// the probe's pinning, where the neighbour ran (every comparison of the process is pinned the same).
async function probeServer({ config, settings, outDir, neighbour }) {
  const probe = await compareOnce({
    config,
    settings: fixedRounds({ ...settings, mode: 'duet' }, PROBE_ROUNDS),
    outDir,
    label: 'probe',
    neighbour,
  });
  const samples = [...probe.benchmark.samples.base, ...probe.benchmark.samples.head];
  return {
    server: {
      id: probe.benchmark.id,
      cpuMicrosPerRequest: mean(samples.map((sample) => sample.cpuMicrosPerRequest)),
      requestsPerSecond: mean(samples.map((sample) => sample.requestsPerSecond)),
      loopSeconds: measureLoopSeconds(),
    },
    pinning: probe.comparison.pinning,
  };
}

// Sizes one slowdown from the probe (or from the checks of smaller sizes: the change per loop
// is the same), corrects it from what duet checks achieve, then checks per mode what it achieves.
// The trials' count is fitted later over every check of the benchmark (finalCounts).
async function sizeInjection({ config, settings, outDir, server, slowdown, modes, maxSizings, neighbour, earlier }) {
  let loops = fittedLoops(earlier, slowdown) ?? loopsForSlowdown({ ...server, slowdown });
  const sizings = [];
  const check = async (mode, label) => {
    const { benchmark } = await compareOnce({
      config,
      settings: fixedRounds({ ...settings, mode }, CHECK_ROUNDS),
      outDir,
      label: `${label}-${sizeLabel(slowdown)}`,
      inject: injectedLoops(loops),
      neighbour,
    });
    const [cpu, requests] = [benchmark.verdicts['CPU µs/request'], benchmark.verdicts['req/s']];
    console.error(
      `${server.id}: ${loops} loop iterations per request achieve, ${mode}: CPU µs/request ${pct(cpu.change)}, req/s ${pct(requests.change)}`,
    );
    return {
      loops,
      rounds: CHECK_ROUNDS,
      cpuChange: cpu.change,
      cpuCi: cpu.ci,
      change: requests.change,
      ci: requests.ci,
    };
  };
  for (let attempt = 1; attempt <= maxSizings; attempt++) {
    const sized = await check('duet', `size-${attempt}`);
    sizings.push(sized);
    const corrected = correctedLoops([...earlier, ...sizings], slowdown);
    if (corrected === null || attempt === maxSizings) break;
    loops = corrected;
  }
  const checks = {};
  // The last duet sizing checked a count in duet mode.
  for (const each of modes) checks[each] = each === 'duet' ? sizings.at(-1) : await check(each, `check-${each}`);
  const { id, ...cost } = server;
  return { slowdown, injection: { ...cost, loops, sizings }, checks };
}

// The trials' loop counts: one check's change is noisy, so a size whose last check came out low
// would be calibrated at less than its name (a "3 %" at 2 %). Every size's count comes from the fit
// over all checks of the benchmark, with the change that count should achieve (expectedChange); a
// size keeps its checked count only when no check saw a change to scale from.
function finalCounts(sized) {
  const all = sized.flatMap(({ injection }) => injection.sizings);
  return sized.map((each) => {
    const loops = fittedLoops(all, each.slowdown) ?? each.injection.loops;
    const injection = { ...each.injection, loops, expected: expectedChange(all, loops) };
    return { ...each, injection: loops === each.injection.loops ? injection : { ...injection, fitted: true } };
  });
}

/**
 * Calibrates one benchmark of `config` in each of `modes`, for each injected size: the report
 * entries and markdown sections. neighbour: the CPU hog's duty cycle in percent, or undefined;
 * tenant: the tenant-like neighbour's average load in percent, or undefined.
 */
export async function calibrateBenchmark({
  config,
  settings,
  outDir,
  slowdowns,
  modes,
  runs,
  sizings,
  neighbour: percent,
  tenant,
}) {
  // Both neighbours travel together to every comparison (withNeighbour's options).
  const neighbour = { percent, tenant };
  const { server, pinning } = await probeServer({ config, settings, outDir, neighbour });
  const checked = [];
  for (const slowdown of slowdowns) {
    const earlier = checked.flatMap(({ injection }) => injection.sizings);
    checked.push(
      await sizeInjection({
        config,
        settings,
        outDir,
        server,
        slowdown,
        modes,
        maxSizings: sizings,
        neighbour,
        earlier,
      }),
    );
  }
  const sized = finalCounts(checked);
  const byMode = Object.fromEntries(modes.map((each) => [each, { trials: [], aa: [], injected: [] }]));
  const kinds = [
    { kind: 'A/A', slowdown: null, loops: 0 },
    ...sized.map((each) => ({ kind: 'injected', slowdown: each.slowdown, loops: each.injection.loops })),
  ];
  // Modes, kinds and sizes alternate within each run, so a slow phase of the machine hits all of them.
  for (let run = 1; run <= runs; run++) {
    for (const each of modes) {
      for (const { kind, slowdown, loops } of kinds) {
        const label = `${each}-${kind === 'A/A' ? 'aa' : `injected-${sizeLabel(slowdown)}`}-${run}`;
        const { comparison, benchmark } = await compareOnce({
          config,
          settings: { ...settings, mode: each },
          outDir,
          label,
          inject: injectedLoops(loops),
          neighbour,
        });
        const trial = trialOutcome(kind, benchmark, comparison.pinning, each, slowdown);
        byMode[each].trials.push(trial);
        if (kind === 'A/A') byMode[each].aa.push(benchmark);
        else byMode[each].injected.push({ slowdown, benchmark });
        const first = trial.firstVerdict === trial.verdict ? '' : ` (first run: ${trial.firstVerdict})`;
        console.error(
          `${server.id} ${each} [${run}/${runs}] ${kind}${slowdown ? ` ${pct(slowdown)}` : ''}: ${trial.verdict}${first}${trial.calledBy ? `, called by ${trial.calledBy}` : ''}, ${pct(trial.change ?? 0)}, ${trial.rounds} rounds, ${trial.seconds.toFixed(0)} s`,
        );
      }
    }
  }
  const neighbours = {
    neighbour: percent ? describeNeighbour(pinning, percent) : null,
    tenant: tenant ? describeTenant(pinning, tenant) : null,
  };
  const band = settings.thresholds['req/s'].threshold;
  const sections = [];
  const report = [];
  for (const each of modes) {
    const { trials, aa, injected } = byMode[each];
    const summary = summarizeTrials(trials, { band, budgetSeconds: settings.budgetSeconds });
    const pooledAA = DECIDING_METRICS.map((metric) => pooledChange(aa, metric.name));
    const injections = sized.map(({ slowdown, injection, checks }) => {
      const ofSize = injected.filter((trial) => trial.slowdown === slowdown).map((trial) => trial.benchmark);
      return {
        slowdown,
        injection: { ...injection, check: checks[each] },
        achieved: DECIDING_METRICS.map((metric) => pooledChange(ofSize, metric.name)).filter(Boolean),
      };
    });
    sections.push(
      calibrationMarkdown({
        benchmark: server.id,
        mode: each,
        injections,
        summary,
        trials,
        pooledAA,
        ...neighbours,
        budgetSeconds: settings.budgetSeconds,
      }),
    );
    report.push({
      benchmark: server.id,
      mode: each,
      ...neighbours,
      injections,
      summary,
      pooledAA,
      trials,
    });
  }
  return { sections, report };
}
