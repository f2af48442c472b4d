// The adaptive round loop of one benchmark on two sides. Each round yields one base and one
// head sample: in duet mode both servers measured at the same time (bench/measurement/measure.js), in
// sequential mode one after the other. Rounds alternate which side goes first (AB, BA, ...;
// in a duet: which starts first and gets the first engine instance), and are added until
// every deciding metric is resolved or the time budget is spent (Node core's compare.js,
// tachometer's automatic mode, duet benchmarking of Bulej et al.).
import { DECIDING_METRICS, decidingMetricsAt, JUDGED_METRICS, sampleValue } from '../results/metrics.js';
import { MODELS } from '../../site/shared/load-point.js';
import {
  COMPARE_DEFAULTS,
  compareSamples,
  DEFAULTS,
  isFullChange,
  isResolved,
  isSlower,
  isSmallChange,
  roundSpread,
  stopReason,
  tooNoisy,
  VERDICTS,
} from '../stats/index.js';
import { percent } from '../core/format.js';

// What is kept of each measured round (a run record of bench/results/record.js): every
// judged metric under its sampleKey, enough to recompute the verdicts and to audit them.
export const roundSample = (run) => ({
  ...Object.fromEntries(JUDGED_METRICS.map((metric) => [metric.sampleKey, metric.fromRun(run)])),
  errors: run.errors,
  timeouts: run.timeouts,
  // Kept for the SLO gate (bench/comparison/slo-gate.js), not judged.
  errorPct: run.errorPct,
  // A soak's trends, one per serving process, for the leak gate (bench/comparison/leak-gate.js), not judged.
  ...(run.server.runtime?.soak?.fit ? { heapTrend: run.server.runtime.soak.fit } : {}),
  clientSaturated: run.loadGenerator.saturated,
  // The machine during the round (CPU model, steal %): a hosted runner's noise, recorded, not judged.
  ...(run.host ? { host: run.host } : {}),
  ...(run.loadGenerator.schedule ? { clientBehind: run.loadGenerator.schedule.behind } : {}),
});

// A tier's metrics decide unless the comparison names its load point.
const CLOSED = { model: MODELS.closed };

// Which metrics may stop the sampling and call the verdict, in the order they call it (each
// metric's `decides`, bench/results/metrics.js): a client-dependent one is left out when the client was
// the bottleneck (it is only a lower bound then); the fallback decides when nothing else was
// measured in every round.
function decidingMetrics(samples, load, runtimesDiffer) {
  const all = [...samples.base, ...samples.head];
  const clientBound = all.some((sample) => sample.clientSaturated);
  const present = (metric) => all.every((sample) => typeof sampleValue(metric, sample) === 'number');
  const deciding = decidingMetricsAt(load);
  const names = deciding
    .filter((metric) => !(clientBound && metric.decides.clientDependent))
    .filter((metric) => !(runtimesDiffer && metric.decides.sameRuntime))
    .filter(present)
    .map((metric) => metric.name);
  const fallback = deciding.filter((metric) => metric.decides.fallback).map((metric) => metric.name);
  const apart = runtimesDiffer ? deciding.filter((metric) => metric.decides.sameRuntime).filter(present) : [];
  return {
    names: names.length ? names : fallback,
    clientBound,
    note: clientBoundNote(deciding),
    ...(apart.length ? { runtimeNote: runtimeNote(apart) } : {}),
  };
}

// Why a metric measured on both sides did not decide: the sides ran on different runtimes.
const runtimeNote = (metrics) =>
  `${namesOf(metrics)} not comparable: the sides run on different runtimes, whose JIT and built-ins allocate differently, so ${metrics.length > 1 ? 'they do' : 'it does'} not decide`;

// How far from zero "no change" may reach (the equivalence margin of bench/stats/verdict.js), per metric band, by
// the name compareInterleaved's noChangeWithin takes: a first run's is the band's noChangeMargin when set
// (--no-change-margin), else a share of the band, never less than the minimum effect; a confirming run's is the
// minimum effect (bench/comparison/confirm.js).
export const NO_CHANGE_MARGINS = Object.freeze({
  band: ({ threshold, minimumEffect = threshold, noChangeMargin }) =>
    noChangeMargin ?? Math.max(minimumEffect, threshold * COMPARE_DEFAULTS.noChangeShare),
  minimumEffect: ({ threshold, minimumEffect = threshold }) => minimumEffect,
});

// thresholds: per metric, { threshold, minimumEffect } as fractions; interval: which one decides;
// equivalenceConfidence: the level of the interval that calls "no change", and noChangeWithin the
// margin (NO_CHANGE_MARGINS) it must lie inside.
function verdictsOf(
  samples,
  { thresholds, minSamples, interval = DEFAULTS.interval, equivalenceConfidence, noChangeWithin },
) {
  const all = [...samples.base, ...samples.head];
  // A metric no round measured (a Go server's heap bytes/request) has no verdict: absent, not inconclusive.
  const measured = JUDGED_METRICS.filter((judged) =>
    all.some((sample) => typeof sampleValue(judged, sample) === 'number'),
  );
  return Object.fromEntries(
    measured.map((judged) => {
      const { name: metric, direction } = judged;
      const value = (sample) => sampleValue(judged, sample);
      const base = samples.base.map(value);
      const head = samples.head.map(value);
      if (![...base, ...head].every((each) => typeof each === 'number'))
        return [metric, { verdict: VERDICTS.inconclusive, ci: null, reason: 'not measured in every round' }];
      // A value of 0 cannot be a relative baseline.
      if (base.every((each) => each === 0))
        return [metric, { verdict: VERDICTS.inconclusive, ci: null, reason: 'base is 0' }];
      return [
        metric,
        compareSamples(base, head, {
          direction,
          ...thresholds[metric],
          minSamples,
          interval,
          equivalenceConfidence,
          equivalenceMargin: NO_CHANGE_MARGINS[noChangeWithin](thresholds[metric]),
        }),
      ];
    }),
  );
}

// Why a client-bound benchmark's verdict rests on some of its deciding metrics only (bench/results/metrics.js).
const namesOf = (metrics) => metrics.map((metric) => metric.name).join(', ');
// A client that fell behind holds throughput down and latency up: each is a bound, not the server's value.
const bound = (metric) => `${metric.name} is ${metric.direction === 'bigger' ? 'a lower' : 'an upper'} bound`;
function clientBoundNote(deciding) {
  const shaped = deciding.filter((metric) => metric.decides.clientDependent).map(bound);
  const restsOn = namesOf(deciding.filter((metric) => !metric.decides.clientDependent));
  return `client-bound: ${shaped.join(', ')}, the verdict rests on ${restsOn}`;
}
export const clientBoundNoteAt = (load) => clientBoundNote(decidingMetricsAt(load));

// The benchmark's verdict from its deciding metrics, in their order (METHOD.md, section 1b):
// - the first that found a change of at least the minimum effect calls it, and it is resolved;
// - else the first that found a small but certain change calls it; resolved only once every deciding
//   metric is, since another may still find a larger change (and "no change" in one does not contradict
//   a small change in another);
// - else "no change" when all of them say so; else inconclusive.
export function overallVerdict(verdicts, deciding) {
  const notes = [
    ...(deciding.clientBound ? [deciding.note ?? clientBoundNote(DECIDING_METRICS)] : []),
    ...(deciding.runtimeNote ? [deciding.runtimeNote] : []),
  ];
  const said = (name) => verdicts[name].verdict;
  const full = deciding.names.find((name) => isFullChange(said(name)));
  if (full) return { verdict: said(full), calledBy: full, resolved: true, notes };
  const open = deciding.names.filter((name) => !isResolved(verdicts[name]));
  const small = deciding.names.find((name) => isSmallChange(said(name)));
  if (small) {
    const disagree = deciding.names.filter(
      (name) => isSmallChange(said(name)) && isSlower(said(name)) !== isSlower(said(small)),
    );
    return {
      verdict: said(small),
      calledBy: small,
      resolved: open.length === 0,
      notes: [
        ...notes,
        ...(open.length ? [`${open.join(', ')} not resolved: a larger change there is not ruled out`] : []),
        ...disagree.map((name) => `${name} moved the other way (${said(name)})`),
      ],
    };
  }
  const calledBy = deciding.names.join(' + ');
  if (open.length === 0) return { verdict: VERDICTS.noChange, calledBy, resolved: true, notes };
  return { verdict: VERDICTS.inconclusive, calledBy, resolved: false, notes };
}

// An inconclusive verdict that the limits (time budget, most rounds) cut short, where a deciding metric's rounds
// were too far apart for that many of them to show even "no change" within its margin: the machine was too noisy
// (a shared or hosted runner), which the verdict says with the spread, rather than leave a close call implied.
function withNoiseNote(verdict, samples, deciding, { thresholds, noChangeWithin, equivalenceConfidence, rounds }) {
  if (verdict.verdict !== VERDICTS.inconclusive) return verdict;
  for (const name of deciding.names) {
    const judged = JUDGED_METRICS.find((metric) => metric.name === name);
    const value = (sample) => sampleValue(judged, sample);
    const spread = roundSpread(samples.base.map(value), samples.head.map(value));
    const margin = NO_CHANGE_MARGINS[noChangeWithin](thresholds[name]);
    if (tooNoisy({ spread, rounds, margin, confidence: equivalenceConfidence }))
      return {
        ...verdict,
        noisy: { metric: name, spread },
        notes: [...verdict.notes, `the machine was too noisy (spread ${percent(spread)} per round in ${name})`],
      };
  }
  return verdict;
}

// An inconclusive verdict whose rounds were too few for any deciding metric to have an interval that calls a change
// (the paired 95 % one needs 6): no machine could have resolved it, so the note says that instead of noise.
function tooFewRounds(verdict, verdicts, deciding, rounds, stoppedBy) {
  if (verdict.verdict !== VERDICTS.inconclusive || deciding.names.some((name) => verdicts[name].ci)) return null;
  return {
    ...verdict,
    notes: [
      ...verdict.notes,
      `${rounds} rounds are too few for an interval that calls a change: allow more (${stoppedBy === 'budget' ? '--budget' : '--max-rounds'})`,
    ],
  };
}

/**
 * @param {{measureRound: (round: number, order: ['base'|'head', 'base'|'head']) => Promise<{base: object, head: object}>,
 *   budgetMs: number, minRounds: number, maxRounds: number, thresholds: object, interval?: string,
 *   equivalenceConfidence?: number, noChangeWithin?: 'band'|'minimumEffect', load?: object, runtimesDiffer?: boolean,
 *   now?: () => number}} plan
 *   noChangeWithin: "no change" as an equivalence within a share of the band (the default) or within the
 *   minimum effect (NO_CHANGE_MARGINS); load: the benchmark's load point, whose metrics decide (a tier's by default);
 *   runtimesDiffer: the sides run on different runtimes, so a metric that decides on one runtime only does not
 * @returns {Promise<{samples: {base: object[], head: object[]}, verdicts: object, verdict: object, rounds: number, elapsedMs: number, stoppedBy: string}>}
 */
export async function compareInterleaved({
  measureRound,
  budgetMs,
  minRounds,
  maxRounds,
  thresholds,
  interval,
  equivalenceConfidence = COMPARE_DEFAULTS.equivalenceConfidence,
  noChangeWithin = 'band',
  load = CLOSED,
  runtimesDiffer = false,
  now = Date.now,
}) {
  const samples = { base: [], head: [] };
  const startedAt = now();
  let rounds = 0;
  for (;;) {
    const order = rounds % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
    const measured = await measureRound(rounds + 1, order);
    samples.base.push(measured.base);
    samples.head.push(measured.head);
    rounds++;
    const verdicts = verdictsOf(samples, {
      thresholds,
      minSamples: Math.max(2, minRounds),
      interval,
      equivalenceConfidence,
      noChangeWithin,
    });
    const deciding = decidingMetrics(samples, load, runtimesDiffer);
    const verdict = overallVerdict(verdicts, deciding);
    // Resolved when a deciding metric found a change of at least the minimum effect, or all of them are resolved.
    const stoppedBy = stopReason({
      result: verdict,
      elapsedMs: now() - startedAt,
      budgetMs,
      rounds,
      minRounds,
      maxRounds,
    });
    if (stoppedBy) {
      const judged =
        stoppedBy === 'resolved'
          ? verdict
          : (tooFewRounds(verdict, verdicts, deciding, rounds, stoppedBy) ??
            withNoiseNote(verdict, samples, deciding, { thresholds, noChangeWithin, equivalenceConfidence, rounds }));
      return { samples, verdicts, verdict: judged, rounds, elapsedMs: now() - startedAt, stoppedBy };
    }
  }
}

// A sequential round from a one-side measurement: the sides one after the other, in `order`.
export const sequentialRound = (measure) => async (round, order) => {
  const measured = {};
  for (const side of order) measured[side] = await measure(side, round);
  return measured;
};
