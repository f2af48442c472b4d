#!/usr/bin/env node
// `npm run calibrate`: how trustworthy are compare's verdicts on this machine?
// For each benchmark (express json and fastify hello at c=100 by default) and each compare
// mode (duet, sequential), runs K A/A comparisons (this checkout against itself) and K where
// the head side's server does extra CPU work per request, sized from its measured CPU
// µs/request (a known slowdown, whose achieved size is measured and printed), alternating
// modes and kinds so that a slow phase of the machine hits all. Prints per benchmark and mode
// the false-alarm rate, the detection rate, the time to a verdict and the pooled A/A change;
// writes calibration.md and calibration.json, and keeps every trial's comparison.json.
// A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrationMarkdown, correctedLoops, loopsForSlowdown, measureLoopSeconds, pooledChange, summarizeTrials, trialOutcome } from '../bench/calibration/index.js';
import { writeCalibration } from '../bench/calibration/write.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { errors } from '../bench/errors.js';
import { MODES, runComparison } from '../bench/compare/run-comparison.js';
import { sideOf } from '../bench/compare/sides.js';
import { writeComparison } from '../bench/compare/write.js';
import { mean } from '../bench/stats/index.js';
import { defaultResultsDir } from '../bench/results/write.js';

// Rates are the point of calibrate: a profile after each injected trial would only cost time.
// It runs every mode and chooses its benchmarks itself.
const { profile, mode, variant, scenario, connections, ...measurementOptions } = COMPARISON_OPTIONS;

const CALIBRATE_COMMAND = {
  name: 'calibrate',
  invocation: 'npm run calibrate --',
  synopsis: '[options]',
  summary: "How trustworthy are compare's verdicts on this machine, per mode? K A/A comparisons and K with a known injected slowdown\nper benchmark and mode, with compare's measurement and verdict options; writes calibration.md and calibration.json.",
  options: {
    runs: { type: 'count', value: 'K', help: 'comparisons of each kind, A/A and injected, per benchmark and mode', default: 10 },
    slowdown: { type: 'positive', value: 'PCT', help: 'the injected slowdown, sized from the server\'s CPU µs/request', default: 5 },
    sizings: { type: 'count', value: 'N', help: 'duet checks that size the slowdown, each correcting the last from the change it achieved', default: 3 },
    // A server-bound benchmark and one that is client-bound on a small machine.
    benchmark: { type: 'list', value: 'V:S:C', help: 'benchmarks as variant:scenario:connections', default: ['express:json:100', 'fastify:hello:100'] },
    modes: { type: 'list', value: 'A,B', help: `compare modes to calibrate (${MODES.join(', ')})`, default: MODES },
    ...measurementOptions,
    out: { ...COMPARISON_OPTIONS.out, defaultText: 'results/<time>-calibrate' },
  },
  check: (values) => [
    ...values.modes.filter((each) => !MODES.includes(each)).map((each) => `--modes: "${each}" is not a mode (${MODES.join(', ')})`),
    ...values.benchmark.filter((each) => each.split(':').length !== 3).map((each) => `--benchmark: "${each}" is not variant:scenario:connections`),
  ],
};

// The issue's targets, printed beside what this machine reaches.
const TARGETS = { falseAlarmRate: 0.05, detectionRate: 0.9, seconds: 90 };
// Fixed-length runs that size the slowdown and check its size; not part of the statistics.
const PROBE_ROUNDS = 3;
const CHECK_ROUNDS = 6;
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const thisCheckout = (label, env) => ({ ...sideOf(label, projectRoot, env ? `this checkout, ${env.PERFGATE_INJECT_LOOPS} loops injected` : 'this checkout', projectRoot), env });

async function compareOnce({ config, settings, outDir, injectLoops, label }) {
  const sides = { base: thisCheckout('base'), head: thisCheckout('head', injectLoops ? { PERFGATE_INJECT_LOOPS: String(injectLoops) } : undefined) };
  const comparison = await runComparison({ config, sides, settings, outDir: join(outDir, label) });
  // Every trial's rounds and samples stay on disk, so a rate can be checked against its data.
  writeComparison(comparison, join(outDir, label));
  const [benchmark] = comparison.benchmarks;
  if (benchmark.status !== 'ok') throw errors.calibrationFailed(benchmark.id, benchmark.status, benchmark.reason);
  return { comparison, benchmark };
}

const fixedRounds = (settings, rounds) => ({ ...settings, minRounds: rounds, maxRounds: rounds, budgetSeconds: 24 * 3600 });
const pct = (fraction) => `${(fraction * 100).toFixed(1)} %`;

// Sizes the injection from the server's CPU cost (a duet probe), corrects it from what duet
// checks achieve, then checks per mode what it achieves.
async function sizeInjection({ config, settings, outDir, slowdown, modes, maxSizings }) {
  const probe = await compareOnce({ config, settings: fixedRounds({ ...settings, mode: 'duet' }, PROBE_ROUNDS), outDir, label: 'probe' });
  const samples = [...probe.benchmark.samples.base, ...probe.benchmark.samples.head];
  const cpuMicrosPerRequest = mean(samples.map((sample) => sample.cpuMicrosPerRequest));
  const loopSeconds = measureLoopSeconds();
  let loops = loopsForSlowdown({ cpuMicrosPerRequest, loopSeconds, slowdown });
  const sizings = [];
  const check = async (mode, label) => {
    const { benchmark } = await compareOnce({ config, settings: fixedRounds({ ...settings, mode }, CHECK_ROUNDS), outDir, label, injectLoops: loops });
    const [cpu, requests] = [benchmark.verdicts['CPU µs/request'], benchmark.verdicts['req/s']];
    console.error(`${probe.benchmark.id}: ${loops} loop iterations per request achieve, ${mode}: CPU µs/request ${pct(cpu.change)}, req/s ${pct(requests.change)}`);
    return { loops, rounds: CHECK_ROUNDS, cpuChange: cpu.change, cpuCi: cpu.ci, change: requests.change, ci: requests.ci };
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
  return { probe, injection: { cpuMicrosPerRequest, requestsPerSecond: mean(samples.map((sample) => sample.requestsPerSecond)), loopSeconds, loops, sizings }, checks };
}

await runCommand(CALIBRATE_COMMAND, async ({ values }) => {
  const outDir = values.out ?? defaultResultsDir('calibrate');
  const slowdown = values.slowdown / 100;
  const report = [];
  const sections = [];
  for (const chosen of values.benchmark) {
    const [variantName, scenarioName, tier] = chosen.split(':');
    const request = comparisonRequest({ ...values, variant: [variantName], scenario: [scenarioName], connections: [tier] });
    const { config } = await resolveSuite(request);
    const benchOut = join(outDir, chosen.replace(/:/g, '-'));
    const settings = { ...request.settings, profile: 'never' };
    console.error(`${chosen}: sizing the slowdown from the server's CPU µs/request`);
    const { probe, injection, checks } = await sizeInjection({ config, settings, outDir: benchOut, slowdown, modes: values.modes, maxSizings: values.sizings });
    const byMode = Object.fromEntries(values.modes.map((each) => [each, { trials: [], aa: [] }]));
    // Modes and kinds alternate within each run, so a slow phase of the machine hits all of them.
    for (let run = 1; run <= values.runs; run++) {
      for (const each of values.modes) {
        for (const kind of ['A/A', 'injected']) {
          const label = `${each}-${kind === 'A/A' ? 'aa' : 'injected'}-${run}`;
          const { comparison, benchmark } = await compareOnce({ config, settings: { ...settings, mode: each }, outDir: benchOut, label, injectLoops: kind === 'injected' ? injection.loops : 0 });
          const trial = trialOutcome(kind, benchmark, comparison.pinning, each);
          byMode[each].trials.push(trial);
          if (kind === 'A/A') byMode[each].aa.push(benchmark);
          console.error(`${probe.benchmark.id} ${each} [${run}/${values.runs}] ${kind}: ${trial.verdict}${trial.calledBy ? ` (${trial.calledBy})` : ''}, ${pct(trial.change ?? 0)}, ${trial.rounds} rounds, ${trial.seconds.toFixed(0)} s`);
        }
      }
    }
    for (const each of values.modes) {
      const { trials, aa } = byMode[each];
      const summary = summarizeTrials(trials);
      const pooledAA = ['CPU µs/request', 'req/s'].map((metric) => pooledChange(aa, metric));
      const modeInjection = { ...injection, check: checks[each] };
      sections.push(calibrationMarkdown({ benchmark: probe.benchmark.id, mode: each, slowdown, injection: modeInjection, summary, trials, targets: TARGETS, pooledAA }));
      report.push({ benchmark: probe.benchmark.id, mode: each, injection: modeInjection, summary, pooledAA, trials });
    }
  }
  const markdown = sections.join('\n');
  writeCalibration(outDir, { slowdown, settings: comparisonRequest(values).settings, calibrations: report }, markdown);
  console.log(markdown);
  console.log(`results: ${outDir}`);
});
