// Calibrations of compare with changes that are not sized from the server's CPU cost but named by
// their amount, each a head variable of servers/contract/contract.js: memory (npm run calibrate
// --objects N,M --leak BYTES; INJECTIONS, duet-cost.js), judged with the runtime agent on so that
// heap bytes/request is, and a stall at a fixed rate (--stall, ./stall.js). Per mode, K rounds of
// an A/A comparison and one comparison per injection, alternating; an injection is detected when
// compare calls it slower, by whichever metric, and A/A false alarms and times to a verdict are
// counted as for CPU.
import { median, SLOWER } from '../../stats/index.js';
import { INJECTIONS } from './duet-cost.js';
import { describeNeighbour } from './neighbour.js';
import { compareOnce } from './run-calibration.js';
import { describeTenant } from './tenant.js';
import { calibrationChecks, mark, percent, pooledChange, summarizeTrials, trialOutcome } from './trials.js';

// An injected change must be called slower (regression or small regression) this often (issue's target).
export const INJECTION_TARGET = Object.freeze({ verdicts: SLOWER, rate: 0.9 });
// A family of injections: its report's title, what its changes should move and what they should
// not (pooled over the trials), and whether the runtime agent must measure.
export const MEMORY = Object.freeze({
  title: 'memory',
  shown: ['heap bytes/request', 'CPU µs/request'],
  runtimeMetrics: true,
});

/**
 * The injections of a memory calibration, from calibrate's flags.
 * @param {{objects?: number[], leak?: number}} amounts  objects: sizes of the allocation-only change
 *   (small objects per request); leak: bytes kept per request
 * @returns {{kind: string, what: string, inject: object}[]}
 */
export function memoryInjections({ objects = [], leak }) {
  const named = (name, amount, what) => ({
    kind: `${name} ${amount}`,
    what,
    inject: { [INJECTIONS[name].variable]: String(amount) },
  });
  return [
    ...objects.map((count) => named('objects', count, `${count} small objects built and dropped per request`)),
    ...(leak ? [named('leak', leak, `${leak} bytes kept per request`)] : []),
  ];
}

// Detection of each injection, beside summarizeTrials' A/A rates and times to a verdict.
export function summarizeInjectionTrials(trials, injections, { budgetSeconds }) {
  const summary = summarizeTrials(trials, { budgetSeconds });
  const detection = injections.map(({ kind, what }) => {
    const injected = trials.filter((trial) => trial.kind === kind && trial.status === 'ok');
    const detected = injected.filter((trial) => INJECTION_TARGET.verdicts.includes(trial.verdict));
    const calledBy = {};
    for (const trial of detected) calledBy[trial.calledBy] = (calledBy[trial.calledBy] ?? 0) + 1;
    return {
      kind,
      what,
      runs: injected.length,
      detected: detected.length,
      detectionRate: injected.length ? detected.length / injected.length : null,
      target: INJECTION_TARGET.rate,
      calledBy,
      resolvedWithinBudget: detected.filter((trial) => trial.seconds <= budgetSeconds).length,
      medianSeconds: injected.length ? median(injected.map((trial) => trial.seconds)) : null,
    };
  });
  return { ...summary, detection };
}

const pooledText = (each) =>
  each
    ? `${each.metric} ${each.change >= 0 ? '+' : ''}${(each.change * 100).toFixed(1)} % over ${each.rounds} rounds`
    : 'n/a';

export function injectionsMarkdown({
  benchmark,
  mode,
  summary,
  trials,
  achieved,
  pooledAA,
  budgetSeconds,
  family = MEMORY,
}) {
  const checks = [
    ...summary.detection.map((each) => {
      const calledBy = Object.entries(each.calledBy).map(([metric, count]) => `${count} by ${metric}`);
      return {
        check: `${each.what} called ${INJECTION_TARGET.verdicts.join(' or ')}`,
        result: `${each.detected} of ${each.runs} (${percent(each.detectionRate)})${calledBy.length ? `: ${calledBy.join(', ')}` : ''}; ${each.resolvedWithinBudget} within the ${budgetSeconds} s budget, median ${each.medianSeconds === null ? 'n/a' : `${each.medianSeconds.toFixed(0)} s`}`,
        target: `≥ ${percent(INJECTION_TARGET.rate)}`,
        met: each.detectionRate === null ? null : each.detectionRate >= INJECTION_TARGET.rate,
      };
    }),
    ...calibrationChecks(summary, { budgetSeconds }),
  ];
  const lines = [
    `## perfgate calibration: ${benchmark}, ${mode} mode, ${family.title} (${summary.detection.map((each) => each.kind).join(', ')})`,
    '',
    ...summary.detection.map(
      (each) => `Achieved over the trials of ${each.what}: ${achieved[each.kind].map(pooledText).join('; ')}`,
    ),
    '',
    `Pooled A/A change: ${pooledAA.map(pooledText).join('; ')}`,
    '',
    '| check | result | target | met |',
    '| --- | --- | --- | --- |',
    ...checks.map((line) => `| ${line.check} | ${line.result} | ${line.target} | ${mark(line.met)} |`),
    '',
    '| # | kind | verdict | called by | change | rounds | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...trials.map(
      (trial, index) =>
        `| ${index + 1} | ${trial.kind} | ${trial.verdict} | ${trial.calledBy ?? ''} | ${trial.change === null ? '' : `${(trial.change * 100).toFixed(1)} %`} | ${trial.rounds} | ${trial.seconds.toFixed(0)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * K A/A comparisons and K of each injection, per mode, alternating, of one benchmark of `config`
 * (with the runtime agent when the family needs it): the report entries and markdown sections.
 * injections: memoryInjections' or stallInjections'; family: MEMORY or STALL (./stall.js);
 * neighbour, tenant: as calibrateBenchmark's.
 */
export async function calibrateInjections({
  config,
  settings,
  outDir,
  injections,
  modes,
  runs,
  neighbour: percentLoad,
  tenant,
  family = MEMORY,
}) {
  const measured = family.runtimeMetrics ? { ...config, runtimeMetrics: true } : config;
  const neighbour = { percent: percentLoad, tenant };
  const kinds = [{ kind: 'A/A', inject: undefined }, ...injections];
  const byMode = Object.fromEntries(
    modes.map((each) => [each, { trials: [], comparisons: Object.fromEntries(kinds.map(({ kind }) => [kind, []])) }]),
  );
  let pinning;
  for (let run = 1; run <= runs; run++) {
    for (const mode of modes) {
      for (const { kind, inject } of kinds) {
        const { comparison, benchmark } = await compareOnce({
          config: measured,
          settings: { ...settings, mode },
          outDir,
          label: `${mode}-${kind.replace(/[^a-z0-9]+/gi, '-')}-${run}`,
          inject,
          neighbour,
        });
        pinning = comparison.pinning;
        const trial = trialOutcome(kind, benchmark, comparison.pinning, mode);
        byMode[mode].trials.push(trial);
        byMode[mode].comparisons[kind].push(benchmark);
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
    const { trials, comparisons } = byMode[mode];
    const summary = summarizeInjectionTrials(trials, injections, { budgetSeconds: settings.budgetSeconds });
    const pooled = (kind) => family.shown.map((metric) => pooledChange(comparisons[kind], metric));
    const achieved = Object.fromEntries(injections.map(({ kind }) => [kind, pooled(kind)]));
    const entry = {
      benchmark: trials[0].benchmark,
      mode,
      injections: injections.map(({ kind, what, inject }) => ({ kind, what, inject })),
      ...neighbours,
      summary,
      achieved,
      pooledAA: pooled('A/A'),
      trials,
    };
    sections.push(injectionsMarkdown({ ...entry, budgetSeconds: settings.budgetSeconds, family }));
    report.push(entry);
  }
  return { sections, report };
}
