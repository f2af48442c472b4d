// Calibration of the A/B verdicts (npm run calibrate): how often does the comparison raise a
// false alarm when both sides are the same code, and how often does it catch a known,
// injected slowdown? The slowdown is CPU work added to every request
// (PERFGATE_INJECT_LOOPS, servers/contract/contract.js), sized from the server's measured CPU cost
// per request. Both compare modes (duet, sequential) are calibrated on the same benchmarks.
import { performance } from 'node:perf_hooks';
import { divisionLoop } from '../../../servers/contract/scenarios.js';
import { levelSuffix, signedPercent } from '../../core/format.js';
import { describePinning } from '../../measurement/pinning.js';
import { DECIDING_METRICS, metricByName, sampleValue } from '../../results/metrics.js';
import { secondsToVerdict } from '../confirm.js';
import { neighbourText, neighbourTitle } from './neighbour.js';
import {
  DEFAULTS,
  isFaster,
  isSlower,
  mean,
  median,
  SLOWER,
  shownInterval,
  standardDeviation,
  VERDICTS,
} from '../../stats/index.js';

// Seconds per iteration of the division loop the servers run, on this core: the median of
// several timings after a warm-up, so that the JIT and a noisy neighbour count less.
export function measureLoopSeconds({ iterations = 2_000_000, repeats = 7 } = {}) {
  divisionLoop(iterations);
  const timings = Array.from({ length: repeats }, () => {
    const start = performance.now();
    divisionLoop(iterations);
    return (performance.now() - start) / 1000 / iterations;
  });
  return median(timings);
}

// A request costs the server C s of CPU (CPU µs/request, measured); to make a CPU-bound
// server `slowdown` (0.05 = 5 %) slower, each request needs C/(1-s) - C s more. Sized from the
// server's own cost, not its req/s, so a client-bound server gets the same relative change.
export function loopsForSlowdown({ cpuMicrosPerRequest, loopSeconds, slowdown }) {
  const extraSeconds = (cpuMicrosPerRequest / 1e6) * intendedCpuChange(slowdown);
  return Math.max(1, Math.round(extraSeconds / loopSeconds));
}

// The change in CPU µs/request that a `slowdown` of a CPU-bound server's req/s means.
const intendedCpuChange = (slowdown) => 1 / (1 - slowdown) - 1;

// A normal 95 % interval is this many standard errors either side (the 97.5 % quantile).
const Z_95 = 1.96;

const sumOfSquares = (sizings) => sizings.reduce((sum, each) => sum + each.loops ** 2, 0);
const changePerLoop = (sizings) =>
  sizings.reduce((sum, each) => sum + each.loops * each.cpuChange, 0) / sumOfSquares(sizings);

// The loop count that should reach the intended change, from duet checks so far ({ loops,
// cpuChange } each): a request's loop runs slower in a server than in the timing above (it
// shares the core and its caches with the rest of the request), so the first count is
// corrected. One check's change is noisy (run-calibration.js, CHECK_ROUNDS), so the count comes from all of
// them, of every size (the change per loop iteration is one quantity): least squares through
// the origin. Null when no check saw a change to scale from.
export function fittedLoops(sizings, slowdown) {
  if (sizings.length === 0) return null;
  const perLoop = changePerLoop(sizings);
  return perLoop > 0 ? Math.max(1, Math.round(intendedCpuChange(slowdown) / perLoop)) : null;
}

// The CPU µs/request change that `loops` iterations should achieve, from the fixed-round checks: the fit above,
// with its 95 % interval (each check's standard error from its interval's half-width, combined as the fit
// weighs them): the size the trials were given, known before they ran, beside what they achieved (pooled
// over their rounds). Null without a check that has an interval.
export function expectedChange(sizings, loops) {
  const checked = sizings.filter((each) => each.cpuCi);
  if (checked.length === 0) return null;
  const change = changePerLoop(checked) * loops;
  const standardError = (ci) => (ci[1] - ci[0]) / (2 * Z_95);
  const variance =
    checked.reduce((sum, each) => sum + each.loops ** 2 * standardError(each.cpuCi) ** 2, 0) /
    sumOfSquares(checked) ** 2;
  const half = Z_95 * Math.sqrt(variance) * loops;
  return { change, ci: [change - half, change + half], checks: checked.length };
}

// Whether to check once more: the fitted count, or null when the last check came close enough
// (within `tolerance` of the intended change, relative) or no check saw a change to scale from.
export function correctedLoops(sizings, slowdown, tolerance = 0.2) {
  const last = sizings.at(-1);
  if (Math.abs(last.cpuChange / intendedCpuChange(slowdown) - 1) <= tolerance) return null;
  return fittedLoops(sizings, slowdown);
}

// The pooled change of A/A trials over all their rounds, per judged metric: the geometric
// mean of the per-round head/base ratios minus 1, with a normal 95 % interval. A side bias
// (order, port, worktree) shows here as a change away from 0.
export function pooledChange(comparisons, metric = DECIDING_METRICS[0].name) {
  const logs = comparisons
    .flatMap(({ samples }) =>
      samples.base.map((base, index) => {
        const [b, h] = [base, samples.head[index]].map((sample) => sampleValue(metricByName(metric), sample));
        return b > 0 && h > 0 ? Math.log(h / b) : null;
      }),
    )
    .filter((value) => value !== null);
  if (logs.length < 2) return null;
  const center = mean(logs);
  const half = (Z_95 * standardDeviation(logs)) / Math.sqrt(logs.length);
  return {
    metric,
    rounds: logs.length,
    change: Math.exp(center) - 1,
    ci: [Math.exp(center - half) - 1, Math.exp(center + half) - 1],
  };
}

// Outcome of one comparison trial, from its benchmark entry and the comparison's pinning
// (bench/comparison/run-comparison.js). The verdict is the benchmark's own, after its confirmation
// (bench/comparison/confirm.js); the first run's is kept beside it. The change shown is the calling
// metric's, or the first deciding metric's that has one when none called it (bench/results/metrics.js). slowdown: the injected size, null for A/A.
export function trialOutcome(kind, benchmark, pinning, mode, slowdown = null) {
  const calledBy = benchmark.verdict?.calledBy;
  const judged =
    benchmark.verdicts?.[calledBy] ??
    DECIDING_METRICS.map((metric) => benchmark.verdicts?.[metric.name]).find((verdict) => verdict);
  const verdict = benchmark.status !== 'ok' ? benchmark.status : (benchmark.verdict?.verdict ?? judged.verdict);
  const shown = shownInterval(judged);
  return {
    kind,
    benchmark: benchmark.id,
    slowdown,
    mode: benchmark.mode ?? mode,
    pinning: describePinning(pinning),
    status: benchmark.status,
    verdict,
    firstVerdict: benchmark.confirmation?.first.verdict.verdict ?? verdict,
    calledBy: calledBy ?? null,
    change: judged?.change ?? null,
    ci: shown?.interval ?? null,
    ciLevel: shown?.level ?? null,
    rounds: benchmark.rounds ?? 0,
    seconds: secondsToVerdict(benchmark),
    reason: benchmark.reason,
  };
}

// The targets of a trustworthy verdict (bench/stats/METHOD.md, section 6), printed as
// check lines beside what this machine reaches. A slowdown at least as large as the band must be
// called a regression; a smaller one a regression or a small regression.
export const TARGETS = Object.freeze({
  largeSlowdown: { verdicts: [VERDICTS.regression], rate: 0.95 },
  smallSlowdown: { verdicts: SLOWER, rate: 0.8 },
  aaSlower: 0.05,
  suite: { benchmarks: 12, clean: 0.9, runs: 10 },
  // A whole-suite comparison (the default suite's 12 benchmarks), from the command to the report;
  // with a neighbour, as on a hosted runner, what a pull request's author can wait for.
  suiteSeconds: { quiet: 300, neighbour: 600 },
  medianSeconds: { quiet: 45, neighbour: 90 },
});
export const detectionTarget = (slowdown, band) =>
  slowdown >= band - 1e-9 ? TARGETS.largeSlowdown : TARGETS.smallSlowdown;

const share = (count, total) => (total ? count / total : null);
const medianOf = (values) => (values.length ? median(values) : null);

// A/A: a false alarm is a slowdown called after the confirmation (either size); the first runs'
// calls are counted apart, as the rate the confirmation starts from. Faster calls on the same code
// are counted too, but never fail a pull request. Injected: detection per size, by its target's
// verdicts, and how many were resolved within the budget. The suite's rate is derived from the
// per-benchmark one, for the default suite's 12 benchmarks: (1 - p)^12 clean.
export function summarizeTrials(trials, { band = 0.05, budgetSeconds = 180 } = {}) {
  const ok = trials.filter((trial) => trial.status === 'ok');
  const aa = ok.filter((trial) => trial.kind === 'A/A');
  const slower = aa.filter((trial) => isSlower(trial.verdict)).length;
  const firstRunSlower = aa.filter((trial) => isSlower(trial.firstVerdict)).length;
  const sizes = [...new Set(ok.filter((trial) => trial.kind === 'injected').map((trial) => trial.slowdown))];
  const injected = sizes
    .sort((a, b) => a - b)
    .map((slowdown) => {
      const ofSize = ok.filter((trial) => trial.kind === 'injected' && trial.slowdown === slowdown);
      const target = detectionTarget(slowdown, band);
      const detected = ofSize.filter((trial) => target.verdicts.includes(trial.verdict));
      return {
        slowdown,
        runs: ofSize.length,
        regression: ofSize.filter((trial) => trial.verdict === VERDICTS.regression).length,
        smallRegression: ofSize.filter((trial) => trial.verdict === VERDICTS.smallRegression).length,
        detected: detected.length,
        detectionRate: share(detected.length, ofSize.length),
        calledAs: target.verdicts,
        target: target.rate,
        inconclusive: ofSize.filter((trial) => trial.verdict === VERDICTS.inconclusive).length,
        resolvedWithinBudget: detected.filter((trial) => trial.seconds <= budgetSeconds).length,
        medianSeconds: medianOf(ofSize.map((trial) => trial.seconds)),
      };
    });
  const slowerRate = share(slower, aa.length);
  const firstRunSlowerRate = share(firstRunSlower, aa.length);
  const clean = (rate) => (rate === null ? null : (1 - rate) ** TARGETS.suite.benchmarks);
  return {
    aa: {
      runs: aa.length,
      slower,
      slowerRate,
      firstRunSlower,
      firstRunSlowerRate,
      faster: aa.filter((trial) => isFaster(trial.verdict)).length,
      firstRunFaster: aa.filter((trial) => isFaster(trial.firstVerdict)).length,
      inconclusive: aa.filter((trial) => trial.verdict === VERDICTS.inconclusive).length,
    },
    injected,
    suite: {
      benchmarks: TARGETS.suite.benchmarks,
      cleanRate: clean(slowerRate),
      firstRunCleanRate: clean(firstRunSlowerRate),
    },
    failed: trials.length - ok.length,
    medianSecondsToVerdict: medianOf(ok.map((trial) => trial.seconds)),
    maxSecondsToVerdict: ok.length ? Math.max(...ok.map((trial) => trial.seconds)) : null,
  };
}

export const percent = (fraction) => (fraction === null ? 'n/a' : `${(fraction * 100).toFixed(0)} %`);
const signed = (fraction) => (fraction === null ? '' : signedPercent(fraction));
const interval = (ci) => (ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '');
const seconds = (value) => (value === null ? 'n/a' : `${value.toFixed(0)} s`);
export const mark = (met) => (met === null ? '—' : met ? '✅' : '❌');

// The issue's targets as check lines: what was reached, the target, and whether it is met.
export function calibrationChecks(summary, { neighbour = null, tenant = null, budgetSeconds = 180 } = {}) {
  const lines = summary.injected.map((size) => ({
    check: `${percent(size.slowdown)} slowdown called ${size.calledAs.join(' or ')}`,
    result: `${size.detected} of ${size.runs} (${percent(size.detectionRate)})`,
    target: `≥ ${percent(size.target)}`,
    met: size.detectionRate === null ? null : size.detectionRate >= size.target,
  }));
  const { aa, suite } = summary;
  const medianTarget = neighbour || tenant ? TARGETS.medianSeconds.neighbour : TARGETS.medianSeconds.quiet;
  const others = [
    ...(neighbour ? [`a ${neighbour.percent} % neighbour`] : []),
    ...(tenant ? [`a ${tenant.percent} % tenant`] : []),
  ];
  const smallest = summary.injected[0];
  return [
    ...lines,
    {
      check: 'A/A called slower (regression or small regression)',
      result: `${aa.slower} of ${aa.runs} (${percent(aa.slowerRate)}); by a first run, before the confirmation: ${aa.firstRunSlower} (${percent(aa.firstRunSlowerRate)})`,
      target: `≤ ${percent(TARGETS.aaSlower)}`,
      met: aa.slowerRate === null ? null : aa.slowerRate <= TARGETS.aaSlower,
    },
    {
      check: `A/A suite of ${suite.benchmarks} with no slower call (derived: (1 − rate)^${suite.benchmarks})`,
      result: `${percent(suite.cleanRate)} (first runs alone: ${percent(suite.firstRunCleanRate)})`,
      target: `≥ ${percent(TARGETS.suite.clean)}`,
      met: suite.cleanRate === null ? null : suite.cleanRate >= TARGETS.suite.clean,
    },
    {
      check: `median time to a verdict${others.length ? `, with ${others.join(' and ')}` : ''}`,
      result: `${seconds(summary.medianSecondsToVerdict)} (max ${seconds(summary.maxSecondsToVerdict)})`,
      target: `≤ ${medianTarget} s`,
      met: summary.medianSecondsToVerdict === null ? null : summary.medianSecondsToVerdict <= medianTarget,
    },
    ...(smallest
      ? [
          {
            check: `${percent(smallest.slowdown)} slowdown resolved within the ${budgetSeconds} s budget`,
            result: `${smallest.resolvedWithinBudget} of ${smallest.runs}, median ${seconds(smallest.medianSeconds)}`,
            target: `≥ ${percent(smallest.target)}`,
            met: smallest.runs ? smallest.resolvedWithinBudget / smallest.runs >= smallest.target : null,
          },
        ]
      : []),
  ];
}

const pooled = (each) => (each ? `${signed(each.change)} ${interval(each.ci)} over ${each.rounds} rounds` : 'n/a');

// One injected size: its loop count, the server it was sized from, and what the fixed check achieved.
function injectionLines({ slowdown, injection, achieved }) {
  return [
    `Injected ${percent(slowdown)}: ${injection.loops} loop iterations per request ` +
      `(base ${injection.cpuMicrosPerRequest.toFixed(1)} CPU µs/request, ${Math.round(injection.requestsPerSecond)} req/s, ${(injection.loopSeconds * 1e9).toFixed(2)} ns per iteration); ` +
      `achieved in a fixed ${injection.check.rounds}-round check${injection.fitted ? ` of ${injection.check.loops} loops` : ''}: CPU µs/request ${signed(injection.check.cpuChange)} ${interval(injection.check.cpuCi)}, ` +
      `req/s ${signed(injection.check.change)} ${interval(injection.check.ci)}`,
    '',
    // The first sizing and its corrections, each from a duet check (correctedLoops).
    `Sizing (intended CPU µs/request ${signed(intendedCpuChange(slowdown))}): ${(injection.sizings ?? []).map((each) => `${each.loops} loops ${signed(each.cpuChange)}`).join(' → ') || 'n/a'}${injection.fitted ? `; the trials use the fit over every check of this benchmark: ${injection.loops} loops` : ''}`,
    '',
    // The size a detection rate belongs to: what the checks' fit gave the trials, then what they achieved.
    ...(injection.expected
      ? [
          `Size of the trials, from the ${injection.expected.checks} fixed-round checks of this benchmark: CPU µs/request ${signed(injection.expected.change)} ${interval(injection.expected.ci)}`,
          '',
        ]
      : []),
    ...(achieved?.length
      ? [
          `Achieved over the injected trials: ${achieved.map((each) => `${each?.metric ?? ''} ${pooled(each)}`).join('; ')}`,
          '',
        ]
      : []),
  ];
}

export function calibrationMarkdown({
  benchmark,
  mode,
  injections,
  summary,
  trials,
  pooledAA = [],
  neighbour = null,
  tenant = null,
  budgetSeconds = 180,
}) {
  const checks = calibrationChecks(summary, { neighbour, tenant, budgetSeconds });
  const lines = [
    `## perfgate calibration: ${benchmark}, ${mode} mode${neighbourTitle({ neighbour, tenant })}`,
    '',
    neighbourText({ neighbour, tenant }, 'comparison'),
    '',
    ...injections.flatMap(injectionLines),
    `Pooled A/A change (side bias; target within ±0.5 %): ${pooledAA.map((each) => `${each?.metric ?? ''} ${pooled(each)}`).join('; ') || 'n/a'}`,
    '',
    // Every trial's, so that a trial measured with other pinning than the rest stands out.
    `Pinning: ${[...new Set(trials.map((trial) => trial.pinning))].join('; ')}`,
    '',
    '| check | result | target | met |',
    '| --- | --- | --- | --- |',
    ...checks.map((line) => `| ${line.check} | ${line.result} | ${line.target} | ${mark(line.met)} |`),
    '',
    `A/A: ${summary.aa.faster} called faster (by a first run, before the confirmation: ${summary.aa.firstRunFaster}), ${summary.aa.inconclusive} inconclusive; failed trials: ${summary.failed}.`,
    '',
    '<details><summary>every trial</summary>',
    '',
    '| # | kind | verdict | first run | called by | change | 95 % CI | rounds | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...trials.map(
      (trial, index) =>
        `| ${index + 1} | ${trial.kind === 'A/A' ? 'A/A' : `injected ${percent(trial.slowdown)}`} | ${trial.verdict} | ${trial.firstVerdict === trial.verdict ? '' : trial.firstVerdict} | ${trial.calledBy ?? ''} | ${signed(trial.change)} | ${interval(trial.ci)}${levelSuffix(trial.ciLevel, DEFAULTS.confidence)} | ${trial.rounds} | ${trial.seconds.toFixed(0)} |`,
    ),
    '',
    '</details>',
  ];
  return `${lines.join('\n')}\n`;
}
