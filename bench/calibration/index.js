// Calibration of the A/B verdicts (npm run calibrate): how often does the comparison raise a
// false alarm when both sides are the same code, and how often does it catch a known,
// injected slowdown? The slowdown is CPU work added to every request
// (PERFGATE_INJECT_LOOPS, servers/contract.js), sized from the server's measured CPU cost
// per request. Both compare modes (duet, sequential) are calibrated on the same benchmarks.
import { performance } from 'node:perf_hooks';
import { divisionLoop } from '../../servers/scenarios.js';
import { describePinning } from '../pinning.js';
import { metricByName, sampleValue } from '../metrics.js';
import { isFaster, isSlower, mean, median, standardDeviation, VERDICTS } from '../stats/index.js';

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

// The loop count that should reach the intended change, from the sizings so far ({ loops,
// cpuChange } each, measured by a short duet check): a request's loop runs slower in a server
// than in the timing above (it shares the core and its caches with the rest of the request), so
// the first count is corrected. One check's change is noisy (±2 % in 6 rounds here), so the
// correction fits all of them: the change per loop iteration by least squares through the origin.
// Null when the last sizing is close enough (within `tolerance` of the intended change,
// relative), or no check saw a change to scale from.
export function correctedLoops(sizings, slowdown, tolerance = 0.2) {
  const intended = intendedCpuChange(slowdown);
  const last = sizings.at(-1);
  if (Math.abs(last.cpuChange / intended - 1) <= tolerance) return null;
  const changePerLoop =
    sizings.reduce((sum, each) => sum + each.loops * each.cpuChange, 0) /
    sizings.reduce((sum, each) => sum + each.loops ** 2, 0);
  return changePerLoop > 0 ? Math.max(1, Math.round(intended / changePerLoop)) : null;
}

// The pooled change of A/A trials over all their rounds, per judged metric: the geometric
// mean of the per-round head/base ratios minus 1, with a normal 95 % interval. A side bias
// (order, port, worktree) shows here as a change away from 0.
export function pooledChange(comparisons, metric = 'CPU µs/request') {
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
  const half = (1.96 * standardDeviation(logs)) / Math.sqrt(logs.length);
  return {
    metric,
    rounds: logs.length,
    change: Math.exp(center) - 1,
    ci: [Math.exp(center - half) - 1, Math.exp(center + half) - 1],
  };
}

// Outcome of one comparison trial, from its benchmark entry and the comparison's pinning
// (bench/compare/run-comparison.js).
// The verdict is the benchmark's own (the metric that called it: bench/compare/rounds.js);
// the change shown is that metric's, or CPU µs/request's when none called it.
export function trialOutcome(kind, benchmark, pinning, mode) {
  const calledBy = benchmark.verdict?.calledBy;
  const judged =
    benchmark.verdicts?.[calledBy] ?? benchmark.verdicts?.['CPU µs/request'] ?? benchmark.verdicts?.['req/s'];
  return {
    kind,
    mode: benchmark.mode ?? mode,
    pinning: describePinning(pinning),
    status: benchmark.status,
    verdict: benchmark.status !== 'ok' ? benchmark.status : (benchmark.verdict?.verdict ?? judged.verdict),
    calledBy: calledBy ?? null,
    change: judged?.change ?? null,
    ci: judged?.ci ?? null,
    rounds: benchmark.rounds ?? 0,
    seconds: (benchmark.elapsedMs ?? 0) / 1000,
    reason: benchmark.reason,
  };
}

const share = (count, total) => (total ? count / total : null);

// An A/A trial is a false alarm when it reports any change; an injected trial is a
// detection when it reports a regression. Inconclusive is neither, and is counted apart.
export function summarizeTrials(trials) {
  const of = (kind) => trials.filter((trial) => trial.kind === kind && trial.status === 'ok');
  const aa = of('A/A');
  const injected = of('injected');
  // Any certain change, small or not, is a false alarm on the same code.
  const falseAlarms = aa.filter((trial) => isSlower(trial.verdict) || isFaster(trial.verdict)).length;
  const detected = injected.filter((trial) => trial.verdict === VERDICTS.regression).length;
  const ok = [...aa, ...injected];
  return {
    aa: {
      runs: aa.length,
      falseAlarms,
      falseAlarmRate: share(falseAlarms, aa.length),
      inconclusive: aa.filter((trial) => trial.verdict === VERDICTS.inconclusive).length,
    },
    injected: {
      runs: injected.length,
      detected,
      detectionRate: share(detected, injected.length),
      inconclusive: injected.filter((trial) => trial.verdict === VERDICTS.inconclusive).length,
    },
    failed: trials.length - ok.length,
    medianSecondsToVerdict: ok.length ? median(ok.map((trial) => trial.seconds)) : null,
    maxSecondsToVerdict: ok.length ? Math.max(...ok.map((trial) => trial.seconds)) : null,
  };
}

const percent = (fraction) => (fraction === null ? 'n/a' : `${(fraction * 100).toFixed(0)} %`);
const signed = (fraction) => (fraction === null ? '' : `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(1)} %`);
const interval = (ci) => (ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '');

const pooled = (each) => (each ? `${signed(each.change)} ${interval(each.ci)} over ${each.rounds} rounds` : 'n/a');

export function calibrationMarkdown({ benchmark, mode, slowdown, injection, summary, trials, targets, pooledAA = [] }) {
  const lines = [
    `## perfgate calibration: ${benchmark}, ${mode} mode`,
    '',
    `Injected slowdown: ${percent(slowdown)} target, ${injection.loops} loop iterations per request ` +
      `(base ${injection.cpuMicrosPerRequest.toFixed(1)} CPU µs/request, ${Math.round(injection.requestsPerSecond)} req/s, ${(injection.loopSeconds * 1e9).toFixed(2)} ns per iteration); ` +
      `achieved in a fixed ${injection.check.rounds}-round check: CPU µs/request ${signed(injection.check.cpuChange)} ${interval(injection.check.cpuCi)}, ` +
      `req/s ${signed(injection.check.change)} ${interval(injection.check.ci)}`,
    '',
    // The first sizing and its corrections, each from a duet check (correctedLoops).
    `Sizing (intended CPU µs/request ${signed(intendedCpuChange(slowdown))}): ${(injection.sizings ?? []).map((each) => `${each.loops} loops ${signed(each.cpuChange)}`).join(' → ') || 'n/a'}`,
    '',
    `Pooled A/A change (side bias; target within ±0.5 %): ${pooledAA.map((each) => `${each?.metric ?? ''} ${pooled(each)}`).join('; ') || 'n/a'}`,
    '',
    // Every trial's, so that a trial measured with other pinning than the rest stands out.
    `Pinning: ${[...new Set(trials.map((trial) => trial.pinning))].join('; ')}`,
    '',
    '| | runs | result | inconclusive | target |',
    '| --- | --- | --- | --- | --- |',
    `| A/A (same code both sides) | ${summary.aa.runs} | false alarms ${summary.aa.falseAlarms} (${percent(summary.aa.falseAlarmRate)}) | ${summary.aa.inconclusive} | ≤ ${percent(targets.falseAlarmRate)} |`,
    `| ${percent(slowdown)} slowdown injected | ${summary.injected.runs} | detected ${summary.injected.detected} (${percent(summary.injected.detectionRate)}) | ${summary.injected.inconclusive} | ≥ ${percent(targets.detectionRate)} |`,
    `| time to a verdict | ${summary.aa.runs + summary.injected.runs} | median ${summary.medianSecondsToVerdict?.toFixed(0)} s, max ${summary.maxSecondsToVerdict?.toFixed(0)} s | | ≤ ${targets.seconds} s |`,
    '',
    '<details><summary>every trial</summary>',
    '',
    '| # | kind | verdict | called by | change | 95 % CI | rounds | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...trials.map(
      (trial, index) =>
        `| ${index + 1} | ${trial.kind} | ${trial.verdict} | ${trial.calledBy ?? ''} | ${signed(trial.change)} | ${interval(trial.ci)} | ${trial.rounds} | ${trial.seconds.toFixed(0)} |`,
    ),
    '',
    '</details>',
  ];
  return `${lines.join('\n')}\n`;
}
