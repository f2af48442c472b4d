// The stall calibration of compare at a fixed arrival rate (npm run calibrate --stall MS/EVERY):
// tail latency is noisier than CPU, so K A/A comparisons of an r= benchmark and K whose head
// sleeps MS milliseconds on every EVERY-th request (PERFGATE_INJECT_STALL,
// servers/contract/contract.js), per mode, alternating. The stall moves p99 latency and barely
// moves CPU µs/request (a sleep costs no CPU), so what calls it is the tail at that rate.
import { parseStall } from '../../../servers/contract/scenarios.js';
import { isOpen, parseLoadTag } from '../../../site/shared/load-point.js';
import { signedPercent } from '../../core/format.js';
import { SLOWER } from '../../stats/index.js';
import { describeNeighbour } from './neighbour.js';
import { compareOnce } from './run-calibration.js';
import { describeTenant } from './tenant.js';
import { calibrationChecks, mark, percent, pooledChange, summarizeTrials, trialOutcome } from './trials.js';

// A stall must be called slower (regression or small regression) this often (issue's target).
export const STALL_TARGET = Object.freeze({ verdicts: SLOWER, rate: 0.9 });
// What the stall should move, and what it should not.
const SHOWN_METRICS = ['p99 latency', 'CPU µs/request'];

// The --stall flag as the server's variable: "20ms/200" -> { ms: 20, every: 200, variable: "20/200" }.
export function stallOption(text) {
  const stall = parseStall(text);
  return { ...stall, variable: `${stall.ms}/${stall.every}` };
}

// What is wrong with a --stall flag, or null.
export function stallProblem(text) {
  try {
    parseStall(text);
    return null;
  } catch (error) {
    return `--stall: ${error.message}`;
  }
}

// A stall calibrates the tail at a fixed rate: a benchmark's load must be an offered rate.
export function stallBenchmarkProblem(benchmark) {
  const tag = benchmark.split(':')[2] ?? '';
  const point = /^r=/.test(tag) ? parseLoadTag(tag) : null;
  return point && isOpen(point)
    ? null
    : `--benchmark: "${benchmark}" is not at an offered rate: --stall calibrates the tail at a fixed arrival rate, give variant:scenario:r=RATE (and --engine vegeta)`;
}

// Detection of the stall, beside summarizeTrials' A/A rates and times to a verdict.
export function summarizeStallTrials(trials, { budgetSeconds }) {
  const summary = summarizeTrials(trials, { budgetSeconds });
  const stalled = trials.filter((trial) => trial.kind === 'stall' && trial.status === 'ok');
  const detected = stalled.filter((trial) => STALL_TARGET.verdicts.includes(trial.verdict));
  const calledBy = {};
  for (const trial of detected) calledBy[trial.calledBy] = (calledBy[trial.calledBy] ?? 0) + 1;
  return {
    ...summary,
    stall: {
      runs: stalled.length,
      detected: detected.length,
      detectionRate: stalled.length ? detected.length / stalled.length : null,
      target: STALL_TARGET.rate,
      calledBy,
      resolvedWithinBudget: detected.filter((trial) => trial.seconds <= budgetSeconds).length,
    },
  };
}

const signed = (fraction) => (fraction === null || fraction === undefined ? '' : signedPercent(fraction));
const pooledText = (each) => (each ? `${each.metric} ${signed(each.change)} over ${each.rounds} rounds` : 'n/a');

export function stallMarkdown({ benchmark, mode, stall, summary, trials, achieved, pooledAA, budgetSeconds }) {
  const { stall: detection } = summary;
  const calledBy = Object.entries(detection.calledBy).map(([metric, count]) => `${count} by ${metric}`);
  const checks = [
    {
      check: `a ${stall.ms} ms stall every ${stall.every} requests called ${STALL_TARGET.verdicts.join(' or ')}`,
      result: `${detection.detected} of ${detection.runs} (${percent(detection.detectionRate)})${calledBy.length ? `: ${calledBy.join(', ')}` : ''}`,
      target: `≥ ${percent(STALL_TARGET.rate)}`,
      met: detection.detectionRate === null ? null : detection.detectionRate >= STALL_TARGET.rate,
    },
    ...calibrationChecks(summary, { budgetSeconds }),
  ];
  const lines = [
    `## perfgate calibration: ${benchmark}, ${mode} mode, a stall of ${stall.ms} ms every ${stall.every} requests`,
    '',
    `Achieved over the stalled trials: ${achieved.map(pooledText).join('; ')}`,
    '',
    `Pooled A/A change: ${pooledAA.map(pooledText).join('; ')}`,
    '',
    '| check | result | target | met |',
    '| --- | --- | --- | --- |',
    ...checks.map((line) => `| ${line.check} | ${line.result} | ${line.target} | ${mark(line.met)} |`),
    '',
    '| # | kind | verdict | called by | change | p99 latency change | rounds | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...trials.map(
      (trial, index) =>
        `| ${index + 1} | ${trial.kind} | ${trial.verdict} | ${trial.calledBy ?? ''} | ${signed(trial.change)} | ${signed(trial.p99Change)} | ${trial.rounds} | ${trial.seconds.toFixed(0)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * K A/A and K stalled comparisons of one r= benchmark of `config` per mode, alternating: the report
 * entries and markdown sections. stall: stallOption's; neighbour, tenant: as calibrateBenchmark's.
 */
export async function calibrateStall({ config, settings, outDir, stall, modes, runs, neighbour: percentLoad, tenant }) {
  const neighbour = { percent: percentLoad, tenant };
  const byMode = Object.fromEntries(modes.map((each) => [each, { trials: [], aa: [], stalled: [] }]));
  const kinds = [
    { kind: 'A/A', inject: undefined },
    { kind: 'stall', inject: { PERFGATE_INJECT_STALL: stall.variable } },
  ];
  let pinning;
  for (let run = 1; run <= runs; run++) {
    for (const mode of modes) {
      for (const { kind, inject } of kinds) {
        const label = `${mode}-${kind === 'A/A' ? 'aa' : 'stall'}-${run}`;
        const { comparison, benchmark } = await compareOnce({
          config,
          settings: { ...settings, mode },
          outDir,
          label,
          inject,
          neighbour,
        });
        pinning = comparison.pinning;
        // The tail's own change beside the calling metric's: what the stall moved.
        const p99Change = benchmark.verdicts?.['p99 latency']?.change ?? null;
        const trial = { ...trialOutcome(kind, benchmark, comparison.pinning, mode), p99Change };
        byMode[mode].trials.push(trial);
        byMode[mode][kind === 'A/A' ? 'aa' : 'stalled'].push(benchmark);
        console.error(
          `${benchmark.id} ${mode} [${run}/${runs}] ${kind}: ${trial.verdict}${trial.calledBy ? `, called by ${trial.calledBy}` : ''}, ${trial.rounds} rounds, ${trial.seconds.toFixed(0)} s`,
        );
      }
    }
  }
  const neighbours = {
    neighbour: percentLoad ? describeNeighbour(pinning, percentLoad) : null,
    tenant: tenant ? describeTenant(pinning, tenant) : null,
  };
  const sections = [];
  const report = [];
  for (const mode of modes) {
    const { trials, aa, stalled } = byMode[mode];
    const summary = summarizeStallTrials(trials, { budgetSeconds: settings.budgetSeconds });
    const achieved = SHOWN_METRICS.map((metric) => pooledChange(stalled, metric));
    const pooledAA = SHOWN_METRICS.map((metric) => pooledChange(aa, metric));
    const benchmark = trials[0].benchmark;
    const entry = { benchmark, mode, stall, ...neighbours, summary, achieved, pooledAA, trials };
    sections.push(stallMarkdown({ ...entry, budgetSeconds: settings.budgetSeconds }));
    report.push(entry);
  }
  return { sections, report };
}
