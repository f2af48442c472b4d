// Whole-suite A/A runs (npm run calibrate -- --suite-runs N): the suite-level false-alarm rate
// measured, not derived from one benchmark's. N comparisons of the whole suite, this checkout
// against itself, each judged as a pull request is (every benchmark's verdict after its
// confirmation, bench/comparison/confirm.js); a run is clean when no benchmark is called slower,
// and its time is the pull request author's wait, from the first server to the report.
import { join } from 'node:path';
import { compareSides } from '../run-comparison.js';
import { writeComparison } from '../write.js';
import { openMeasurement } from '../../measurement/context.js';
import { expandSpecs } from '../../measurement/specs.js';
import { isFaster, isSlower, median, VERDICTS } from '../../stats/index.js';
import { describeNeighbour, neighbourText, neighbourTitle, withNeighbour } from './neighbour.js';
import { describeTenant } from './tenant.js';
import { thisCheckout } from './run-calibration.js';
import { mark, percent, summarizeTrials, TARGETS, trialOutcome } from './trials.js';

// What one run of the suite said: how many benchmarks were called what, and how long it took.
export function suiteRunOutcome(comparison, seconds) {
  const trials = comparison.benchmarks.map((benchmark) =>
    trialOutcome('A/A', benchmark, comparison.pinning, comparison.settings?.mode),
  );
  const ok = trials.filter((trial) => trial.status === 'ok');
  const slower = ok.filter((trial) => isSlower(trial.verdict));
  return {
    benchmarks: trials.length,
    failed: trials.length - ok.length,
    slower: slower.map((trial) => trial.benchmark),
    firstRunSlower: ok.filter((trial) => isSlower(trial.firstVerdict)).map((trial) => trial.benchmark),
    faster: ok.filter((trial) => isFaster(trial.verdict)).length,
    firstRunFaster: ok.filter((trial) => isFaster(trial.firstVerdict)).length,
    inconclusive: ok.filter((trial) => trial.verdict === VERDICTS.inconclusive).length,
    clean: slower.length === 0 && ok.length === trials.length,
    seconds,
    trials,
  };
}

// The suite-level checks: clean runs against the target, the suite's time, and the per-benchmark
// A/A rate and time to a verdict over every benchmark of every run.
export function summarizeSuiteRuns(runs) {
  const clean = runs.filter((run) => run.clean).length;
  const perBenchmark = summarizeTrials(runs.flatMap((run) => run.trials));
  return {
    runs: runs.length,
    clean,
    cleanRate: runs.length ? clean / runs.length : null,
    medianSeconds: runs.length ? median(runs.map((run) => run.seconds)) : null,
    maxSeconds: runs.length ? Math.max(...runs.map((run) => run.seconds)) : null,
    perBenchmark: {
      runs: perBenchmark.aa.runs,
      slower: perBenchmark.aa.slower,
      slowerRate: perBenchmark.aa.slowerRate,
      firstRunSlower: perBenchmark.aa.firstRunSlower,
      firstRunSlowerRate: perBenchmark.aa.firstRunSlowerRate,
      medianSecondsToVerdict: perBenchmark.medianSecondsToVerdict,
      maxSecondsToVerdict: perBenchmark.maxSecondsToVerdict,
    },
  };
}

// Rounded to the second first, so that 299.6 s reads "5 min 00 s", not "4 min 60 s".
export function duration(value) {
  if (value === null) return 'n/a';
  const seconds = Math.round(value);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

export function suiteRunsMarkdown({ suite, summary, runs, neighbour = null, tenant = null }) {
  const machine = neighbour || tenant ? 'neighbour' : 'quiet';
  const medianTarget = TARGETS.medianSeconds[machine];
  const suiteTarget = TARGETS.suiteSeconds[machine];
  const { perBenchmark } = summary;
  const enough = summary.runs >= TARGETS.suite.runs;
  const checks = [
    {
      check: `whole-suite A/A runs with no benchmark called slower`,
      result: `${summary.clean} of ${summary.runs} (${percent(summary.cleanRate)})${enough ? '' : `; fewer than the ${TARGETS.suite.runs} runs the target asks`}`,
      target: `≥ ${percent(TARGETS.suite.clean)} of ≥ ${TARGETS.suite.runs} runs`,
      met: summary.cleanRate === null ? null : summary.cleanRate >= TARGETS.suite.clean && enough,
    },
    {
      check: 'benchmarks called slower, over every run',
      result: `${perBenchmark.slower} of ${perBenchmark.runs} (${percent(perBenchmark.slowerRate)}); by a first run, before the confirmation: ${perBenchmark.firstRunSlower} (${percent(perBenchmark.firstRunSlowerRate)})`,
      target: `≤ ${percent(TARGETS.aaSlower)}`,
      met: perBenchmark.slowerRate === null ? null : perBenchmark.slowerRate <= TARGETS.aaSlower,
    },
    {
      check: 'time of a whole-suite comparison',
      result: `median ${duration(summary.medianSeconds)} (max ${duration(summary.maxSeconds)})`,
      target: `≤ ${duration(suiteTarget)}`,
      met: summary.medianSeconds === null ? null : summary.medianSeconds <= suiteTarget,
    },
    {
      check: 'median time to a verdict, per benchmark',
      result: `${Math.round(perBenchmark.medianSecondsToVerdict ?? 0)} s (max ${Math.round(perBenchmark.maxSecondsToVerdict ?? 0)} s)`,
      target: `≤ ${medianTarget} s`,
      met: perBenchmark.medianSecondsToVerdict === null ? null : perBenchmark.medianSecondsToVerdict <= medianTarget,
    },
  ];
  const lines = [
    `## perfgate calibration: the whole ${suite} suite, A/A${neighbourTitle({ neighbour, tenant })}`,
    '',
    neighbourText({ neighbour, tenant }, 'run'),
    '',
    `Pinning: ${[...new Set(runs.flatMap((run) => run.trials.map((trial) => trial.pinning)))].join('; ')}`,
    '',
    '| check | result | target | met |',
    '| --- | --- | --- | --- |',
    ...checks.map((line) => `| ${line.check} | ${line.result} | ${line.target} | ${mark(line.met)} |`),
    '',
    '| run | benchmarks | called slower | slower in a first run | faster (in a first run) | inconclusive | failed | time |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(
      (run, index) =>
        `| ${index + 1} | ${run.benchmarks} | ${run.slower.join(', ') || 'none'} | ${run.firstRunSlower.join(', ') || 'none'} | ${run.faster} (${run.firstRunFaster}) | ${run.inconclusive} | ${run.failed} | ${duration(run.seconds)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Runs the whole suite of `config` A/A `runs` times, each comparison kept on disk.
 * @returns {Promise<{section: string, report: object}>}
 */
export async function calibrateSuite({ config, settings, outDir, runs, neighbour, tenant, suite }) {
  const outcomes = [];
  let pinning;
  // The neighbour's own timeout: every benchmark to its budget, confirmed, and some.
  const timeoutSeconds = 2 * settings.budgetSeconds * expandSpecs(config).length + 300;
  for (let run = 1; run <= runs; run++) {
    const request = {
      config,
      sides: { base: thisCheckout('base'), head: thisCheckout('head') },
      settings,
      outDir: join(outDir, `suite-aa-${run}`),
    };
    const startedAt = Date.now();
    const measurement = await openMeasurement(request);
    pinning = measurement.plan;
    const comparison = await withNeighbour(measurement.plan, { percent: neighbour, tenant, timeoutSeconds }, () =>
      compareSides(measurement, request),
    );
    const outcome = suiteRunOutcome(comparison, (Date.now() - startedAt) / 1000);
    writeComparison(comparison, request.outDir);
    outcomes.push(outcome);
    console.error(
      `${suite} suite A/A [${run}/${runs}]: ${outcome.clean ? 'clean' : `called slower: ${outcome.slower.join(', ') || `${outcome.failed} failed`}`}, ${duration(outcome.seconds)}`,
    );
  }
  const neighbours = {
    neighbour: neighbour ? describeNeighbour(pinning, neighbour) : null,
    tenant: tenant ? describeTenant(pinning, tenant) : null,
  };
  const summary = summarizeSuiteRuns(outcomes);
  return {
    section: suiteRunsMarkdown({ suite, summary, runs: outcomes, ...neighbours }),
    report: { suite, ...neighbours, summary, runs: outcomes },
  };
}
