// Calibration of the A/B verdicts (npm run calibrate): how often does the comparison raise a
// false alarm when both sides are the same code, and how often does it catch a known,
// injected slowdown? The slowdown is CPU work added to every request
// (PERFGATE_INJECT_LOOPS, servers/contract.js), sized from the measured throughput.
import { performance } from 'node:perf_hooks';
import { divisionLoop } from '../../servers/scenarios.js';
import { describePinning } from '../pinning.js';
import { median, VERDICTS } from '../stats/index.js';

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

// A server that is CPU-bound serves a request in 1/R s of its core; to drop throughput by
// `slowdown` (0.05 = 5 %), each request needs 1/(R(1-s)) - 1/R s more.
export function loopsForSlowdown({ requestsPerSecond, loopSeconds, slowdown }) {
  const extraSeconds = (1 / (1 - slowdown) - 1) / requestsPerSecond;
  return Math.max(1, Math.round(extraSeconds / loopSeconds));
}

// Outcome of one comparison trial, from its benchmark entry and the comparison's pinning
// (bench/compare/run-comparison.js).
export function trialOutcome(kind, benchmark, pinning) {
  const judged = benchmark.verdicts?.['req/s'];
  return {
    kind,
    pinning: describePinning(pinning),
    status: benchmark.status,
    verdict: benchmark.status === 'ok' ? judged.verdict : benchmark.status,
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
  const falseAlarms = aa.filter((trial) => trial.verdict === VERDICTS.regression || trial.verdict === VERDICTS.improvement).length;
  const detected = injected.filter((trial) => trial.verdict === VERDICTS.regression).length;
  const ok = [...aa, ...injected];
  return {
    aa: { runs: aa.length, falseAlarms, falseAlarmRate: share(falseAlarms, aa.length), inconclusive: aa.filter((trial) => trial.verdict === VERDICTS.inconclusive).length },
    injected: { runs: injected.length, detected, detectionRate: share(detected, injected.length), inconclusive: injected.filter((trial) => trial.verdict === VERDICTS.inconclusive).length },
    failed: trials.length - ok.length,
    medianSecondsToVerdict: ok.length ? median(ok.map((trial) => trial.seconds)) : null,
    maxSecondsToVerdict: ok.length ? Math.max(...ok.map((trial) => trial.seconds)) : null,
  };
}

const percent = (fraction) => (fraction === null ? 'n/a' : `${(fraction * 100).toFixed(0)} %`);
const signed = (fraction) => (fraction === null ? '' : `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(1)} %`);
const interval = (ci) => (ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '');

export function calibrationMarkdown({ benchmark, slowdown, injection, summary, trials, targets }) {
  const lines = [
    `## perfgate calibration: ${benchmark}`,
    '',
    `Injected slowdown: ${percent(slowdown)} target, ${injection.loops} loop iterations per request ` +
      `(base ${Math.round(injection.requestsPerSecond)} req/s, ${(injection.loopSeconds * 1e9).toFixed(2)} ns per iteration); ` +
      `measured in a fixed ${injection.check.rounds}-round check: ${signed(injection.check.change)} ${interval(injection.check.ci)}`,
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
    '| # | kind | verdict | change | 95 % CI | rounds | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...trials.map((trial, index) => `| ${index + 1} | ${trial.kind} | ${trial.verdict} | ${signed(trial.change)} | ${interval(trial.ci)} | ${trial.rounds} | ${trial.seconds.toFixed(0)} |`),
    '',
    '</details>',
  ];
  return `${lines.join('\n')}\n`;
}
