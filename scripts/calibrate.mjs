#!/usr/bin/env node
// `npm run calibrate`: how trustworthy are compare's verdicts on this machine?
// Runs K A/A comparisons (this checkout against itself) and K comparisons where the head
// side's server does calibrated extra CPU work per request (a known slowdown), alternating
// the two kinds so that a slow phase of the machine hits both, with compare's own settings.
// Prints the false-alarm rate, the detection rate and the time to a verdict; writes
// calibration.md and calibration.json. A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrationMarkdown, loopsForSlowdown, measureLoopSeconds, summarizeTrials, trialOutcome } from '../bench/calibration/index.js';
import { writeCalibration } from '../bench/calibration/write.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { errors } from '../bench/errors.js';
import { runComparison } from '../bench/compare/run-comparison.js';
import { sideOf } from '../bench/compare/sides.js';
import { writeComparison } from '../bench/compare/write.js';
import { mean } from '../bench/stats/index.js';

// Rates are the point of calibrate: a profile after each injected trial would only cost time.
const { profile, ...measurementOptions } = COMPARISON_OPTIONS;

const CALIBRATE_COMMAND = {
  name: 'calibrate',
  invocation: 'npm run calibrate --',
  synopsis: '[options]',
  summary: "How trustworthy are compare's verdicts on this machine? K A/A comparisons and K with a known injected slowdown,\nwith compare's measurement and verdict options; writes calibration.md and calibration.json.",
  options: {
    runs: { type: 'count', value: 'K', help: 'comparisons of each kind, A/A and injected', default: 10 },
    slowdown: { type: 'positive', value: 'PCT', help: 'the injected slowdown', default: 5 },
    ...measurementOptions,
    // One benchmark, a typical one unless told otherwise.
    variant: { ...COMPARISON_OPTIONS.variant, default: ['express'] },
    scenario: { ...COMPARISON_OPTIONS.scenario, default: ['json'] },
    connections: { ...COMPARISON_OPTIONS.connections, default: ['100'] },
    out: { ...COMPARISON_OPTIONS.out, defaultText: 'results/<time>-calibrate' },
  },
};

// The targets, printed beside what this machine reaches.
const TARGETS = { falseAlarmRate: 0.05, detectionRate: 0.9, seconds: 180 };
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

await runCommand(CALIBRATE_COMMAND, async ({ values }) => {
  const request = { ...comparisonRequest(values), runs: values.runs, slowdown: values.slowdown / 100 };
  const { config } = await resolveSuite(request);
  if (config.variants.length * config.scenarios.length * config.connections.length !== 1) {
    throw errors.badConfig('command line', ['calibrate one benchmark: give one --variant, one --scenario and one --connections']);
  }
  const outDir = request.outDir ?? `results/${new Date().toISOString().replace(/[:.]/g, '-')}-calibrate`;
  const settings = { ...request.settings, profile: 'never' };

  console.error('sizing the slowdown: base throughput and loop speed');
  const probe = await compareOnce({ config, settings: fixedRounds(settings, PROBE_ROUNDS), outDir, label: 'probe' });
  const requestsPerSecond = mean([...probe.benchmark.samples.base, ...probe.benchmark.samples.head].map((sample) => sample.requestsPerSecond));
  const loopSeconds = measureLoopSeconds();
  const loops = loopsForSlowdown({ requestsPerSecond, loopSeconds, slowdown: request.slowdown });
  const check = await compareOnce({ config, settings: fixedRounds(settings, CHECK_ROUNDS), outDir, label: 'check', injectLoops: loops });
  const checked = check.benchmark.verdicts['req/s'];
  const injection = { requestsPerSecond, loopSeconds, loops, check: { rounds: CHECK_ROUNDS, change: checked.change, ci: checked.ci } };
  console.error(`injecting ${loops} loop iterations per request; measured change ${(checked.change * 100).toFixed(1)} %`);

  const trials = [];
  for (let run = 1; run <= request.runs; run++) {
    for (const kind of ['A/A', 'injected']) {
      const { comparison, benchmark } = await compareOnce({ config, settings, outDir, label: `${kind === 'A/A' ? 'aa' : 'injected'}-${run}`, injectLoops: kind === 'injected' ? loops : 0 });
      const trial = trialOutcome(kind, benchmark, comparison.pinning);
      trials.push(trial);
      console.error(`[${trials.length}/${request.runs * 2}] ${kind}: ${trial.verdict} (${(trial.change * 100).toFixed(1)} %, ${trial.rounds} rounds, ${trial.seconds.toFixed(0)} s)`);
    }
  }
  const summary = summarizeTrials(trials);
  const benchmark = probe.benchmark.id;
  const markdown = calibrationMarkdown({ benchmark, slowdown: request.slowdown, injection, summary, trials, targets: TARGETS });
  writeCalibration(outDir, { benchmark, slowdown: request.slowdown, settings, injection, summary, trials, machine: probe.comparison.machine, pinning: probe.comparison.pinning }, markdown);
  console.log(markdown);
  console.log(`results: ${outDir}`);
});
