// One calibration of compare's verdicts on one benchmark (npm run calibrate): the injected
// slowdown sized from the server's CPU cost and corrected by duet checks, then K A/A and K
// injected comparisons per mode, alternating, each kept on disk with its rounds.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runComparison } from '../compare/run-comparison.js';
import { sideOf } from '../compare/sides.js';
import { writeComparison } from '../compare/write.js';
import { errors } from '../errors.js';
import { mean } from '../stats/index.js';
import {
  calibrationMarkdown,
  correctedLoops,
  loopsForSlowdown,
  measureLoopSeconds,
  pooledChange,
  summarizeTrials,
  trialOutcome,
} from './index.js';

// The targets of a trustworthy verdict, printed beside what this machine reaches.
const TARGETS = { falseAlarmRate: 0.05, detectionRate: 0.9, seconds: 90 };
// Fixed-length runs that size the slowdown and check its size; not part of the statistics.
const PROBE_ROUNDS = 3;
const CHECK_ROUNDS = 6;
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const thisCheckout = (label, env) => ({
  ...sideOf(
    label,
    projectRoot,
    env ? `this checkout, ${env.PERFGATE_INJECT_LOOPS} loops injected` : 'this checkout',
    projectRoot,
  ),
  env,
});

async function compareOnce({ config, settings, outDir, injectLoops, label }) {
  const sides = {
    base: thisCheckout('base'),
    head: thisCheckout('head', injectLoops ? { PERFGATE_INJECT_LOOPS: String(injectLoops) } : undefined),
  };
  const comparison = await runComparison({ config, sides, settings, outDir: join(outDir, label) });
  // Every trial's rounds and samples stay on disk, so a rate can be checked against its data.
  writeComparison(comparison, join(outDir, label));
  const [benchmark] = comparison.benchmarks;
  if (benchmark.status !== 'ok') throw errors.calibrationFailed(benchmark.id, benchmark.status, benchmark.reason);
  return { comparison, benchmark };
}

const fixedRounds = (settings, rounds) => ({
  ...settings,
  minRounds: rounds,
  maxRounds: rounds,
  budgetSeconds: 24 * 3600,
});
const pct = (fraction) => `${(fraction * 100).toFixed(1)} %`;

// Sizes the injection from the server's CPU cost (a duet probe), corrects it from what duet
// checks achieve, then checks per mode what it achieves.
async function sizeInjection({ config, settings, outDir, slowdown, modes, maxSizings }) {
  const probe = await compareOnce({
    config,
    settings: fixedRounds({ ...settings, mode: 'duet' }, PROBE_ROUNDS),
    outDir,
    label: 'probe',
  });
  const samples = [...probe.benchmark.samples.base, ...probe.benchmark.samples.head];
  const cpuMicrosPerRequest = mean(samples.map((sample) => sample.cpuMicrosPerRequest));
  const loopSeconds = measureLoopSeconds();
  let loops = loopsForSlowdown({ cpuMicrosPerRequest, loopSeconds, slowdown });
  const sizings = [];
  const check = async (mode, label) => {
    const { benchmark } = await compareOnce({
      config,
      settings: fixedRounds({ ...settings, mode }, CHECK_ROUNDS),
      outDir,
      label,
      injectLoops: loops,
    });
    const [cpu, requests] = [benchmark.verdicts['CPU µs/request'], benchmark.verdicts['req/s']];
    console.error(
      `${probe.benchmark.id}: ${loops} loop iterations per request achieve, ${mode}: CPU µs/request ${pct(cpu.change)}, req/s ${pct(requests.change)}`,
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
    const corrected = correctedLoops(sizings, slowdown);
    // The count the trials use is always one a sizing checked.
    if (corrected === null || attempt === maxSizings) break;
    loops = corrected;
  }
  const checks = {};
  // The last duet sizing checked the final count in duet mode.
  for (const each of modes) checks[each] = each === 'duet' ? sizings.at(-1) : await check(each, `check-${each}`);
  return {
    probe,
    injection: {
      cpuMicrosPerRequest,
      requestsPerSecond: mean(samples.map((sample) => sample.requestsPerSecond)),
      loopSeconds,
      loops,
      sizings,
    },
    checks,
  };
}

// Calibrates one benchmark of `config` in each of `modes`: the report entries and markdown sections.
export async function calibrateBenchmark({ config, settings, outDir, slowdown, modes, runs, sizings }) {
  const sections = [];
  const report = [];
  const { probe, injection, checks } = await sizeInjection({
    config,
    settings,
    outDir,
    slowdown,
    modes,
    maxSizings: sizings,
  });
  const byMode = Object.fromEntries(modes.map((each) => [each, { trials: [], aa: [] }]));
  // Modes and kinds alternate within each run, so a slow phase of the machine hits all of them.
  for (let run = 1; run <= runs; run++) {
    for (const each of modes) {
      for (const kind of ['A/A', 'injected']) {
        const label = `${each}-${kind === 'A/A' ? 'aa' : 'injected'}-${run}`;
        const { comparison, benchmark } = await compareOnce({
          config,
          settings: { ...settings, mode: each },
          outDir,
          label,
          injectLoops: kind === 'injected' ? injection.loops : 0,
        });
        const trial = trialOutcome(kind, benchmark, comparison.pinning, each);
        byMode[each].trials.push(trial);
        if (kind === 'A/A') byMode[each].aa.push(benchmark);
        console.error(
          `${probe.benchmark.id} ${each} [${run}/${runs}] ${kind}: ${trial.verdict}${trial.calledBy ? ` (${trial.calledBy})` : ''}, ${pct(trial.change ?? 0)}, ${trial.rounds} rounds, ${trial.seconds.toFixed(0)} s`,
        );
      }
    }
  }
  for (const each of modes) {
    const { trials, aa } = byMode[each];
    const summary = summarizeTrials(trials);
    const pooledAA = ['CPU µs/request', 'req/s'].map((metric) => pooledChange(aa, metric));
    const modeInjection = { ...injection, check: checks[each] };
    sections.push(
      calibrationMarkdown({
        benchmark: probe.benchmark.id,
        mode: each,
        slowdown,
        injection: modeInjection,
        summary,
        trials,
        targets: TARGETS,
        pooledAA,
      }),
    );
    report.push({ benchmark: probe.benchmark.id, mode: each, injection: modeInjection, summary, pooledAA, trials });
  }
  return { sections, report };
}
