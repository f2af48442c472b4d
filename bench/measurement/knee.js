// The knee (bench --find-knee): the highest offered rate at which every SLO of a benchmark holds
// (bench/results/slo.js), what a capacity planner buys machines by. An open-model engine loads the
// benchmark at a rate, its objectives are judged, and the rate doubles while they hold (halves
// while they break), then the interval between the highest rate that held and the lowest that
// broke is halved (geometrically) until it is narrow enough. Bounded in steps and in time: it
// stops by itself and reports the interval it has.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { errors, PerfgateError } from '../core/errors.js';
import { engineFor } from './engines/seam.js';
import { measurementSettings, openMeasurement } from './context.js';
import { measureOnce } from './measure.js';
import { variantForSpec } from './run-suite.js';
import { expandSpecs } from './specs.js';
import { skipReason } from './variants.js';
import { summarizeRuns } from '../results/record.js';
import { benchmarkSlo, objectivesFor } from '../results/slo.js';

// steps: measurements per benchmark; seconds: its time budget; precision: the interval's width
// (highest broken over highest held, minus one) that is narrow enough.
export const KNEE_DEFAULTS = Object.freeze({ steps: 8, seconds: 600, precision: 0.1 });

// What one load at a rate says: every objective held, one broke, or the client could not hold the
// schedule (its latency not judged): a rate the engine cannot offer, an upper end like a break.
export const OUTCOMES = Object.freeze({ met: 'met', broken: 'broken', client: 'client' });

const rounded = (rate) => Math.max(1, Math.round(rate));

/**
 * @param {{probe: (rate: number) => Promise<string>, start: number, steps?: number, seconds?: number,
 *   precision?: number, clock?: () => number}} search  probe: an OUTCOMES value; clock: seconds
 * @returns {Promise<{knee: number|null, interval: [number|null, number|null], clientBound: boolean,
 *   stoppedBy: 'precision'|'steps'|'time'|'floor', steps: {rate: number, outcome: string}[]}>}
 *   knee: the highest rate that held (null: none did); interval: [held, broke] (broke null: none broke)
 */
export async function searchKnee({
  probe,
  start,
  steps = KNEE_DEFAULTS.steps,
  seconds = KNEE_DEFAULTS.seconds,
  precision = KNEE_DEFAULTS.precision,
  clock = () => performance.now() / 1000,
}) {
  const began = clock();
  const taken = [];
  let held = null;
  let broke = null;
  let clientBound = false;
  const narrow = () => held !== null && broke !== null && broke / held - 1 <= precision;
  const next = () => {
    if (held === null) return rounded(broke / 2);
    if (broke === null) return rounded(held * 2);
    return rounded(Math.sqrt(held * broke));
  };
  let rate = rounded(start);
  for (;;) {
    const outcome = await probe(rate);
    taken.push({ rate, outcome });
    if (outcome === OUTCOMES.met) held = rate;
    else {
      broke = rate;
      clientBound = outcome === OUTCOMES.client;
    }
    const stoppedBy = narrow()
      ? 'precision'
      : held === null && broke <= 1
        ? 'floor'
        : taken.length >= steps
          ? 'steps'
          : clock() - began >= seconds
            ? 'time'
            : null;
    rate = stoppedBy ? rate : next();
    // Two neighbouring whole rates: nothing lies between them.
    const settled = !stoppedBy && (rate === held || rate === broke);
    if (stoppedBy || settled)
      return { knee: held, interval: [held, broke], clientBound, stoppedBy: stoppedBy ?? 'precision', steps: taken };
  }
}

// A load's judged objectives -> its outcome.
export function outcomeOf(judged) {
  if (judged.some((each) => each.met === false)) return OUTCOMES.broken;
  if (judged.some((each) => each.met === null && each.value !== null)) return OUTCOMES.client;
  return OUTCOMES.met;
}

// "express json c=10" -> "express json": the benchmark whatever its load point.
const withoutLoadTag = (id) => id.slice(0, id.lastIndexOf(' '));

/**
 * The knee of every benchmark of a suite that has objectives, measured with the suite's (open-model)
 * engine from `start` req/s (0: from the benchmark's first rate tier). One benchmark per variant, scenario, options and runtime: its load
 * points' connections, the first one's, are the client's pool at every rate.
 * @returns {Promise<object[]>} per benchmark: {benchmark, ...searchKnee's, measured: per step the judged objectives}
 *   or {benchmark, failed: reason} (a load failed) or {benchmark, skipped: reason} (its variant cannot run here)
 */
export async function findKnees({ config, variants, outDir, start, limits = {}, onStep = () => {} }) {
  const specs = expandSpecs(config).filter((spec) => objectivesFor(config, spec).length);
  if (!specs.length) throw errors.kneeNeedsSlo();
  // A benchmark's search starts at `start`, else at its first rate tier (an r= benchmark's).
  const startOf = (spec) =>
    start || specs.find((other) => withoutLoadTag(other.id) === withoutLoadTag(spec.id) && other.rate)?.rate || 0;
  if (engineFor(config.engine, startOf(specs[0])).model !== 'open') throw errors.kneeNeedsOpenEngine(config.engine);
  const measurement = await openMeasurement({ config, outDir });
  const unique = specs.filter(
    (spec, index) => specs.findIndex((other) => withoutLoadTag(other.id) === withoutLoadTag(spec.id)) === index,
  );
  const knees = [];
  for (const spec of unique) {
    const benchmark = withoutLoadTag(spec.id);
    const variant = variantForSpec(variants, spec);
    const skipped = variant.unavailable ?? skipReason(variant, spec);
    if (skipped) {
      knees.push({ benchmark, skipped, measured: [] });
      continue;
    }
    // What the history's knee line says of its benchmark (bench/results/benchmark-action.js).
    const about = { variant: spec.variant, scenario: spec.scenario, tags: spec.tags, runtime: spec.runtime ?? null };
    const measured = [];
    const probe = async (rate) => {
      // The benchmark at this rate: an open load point (bench/measurement/context.js reads it).
      const atRate = { ...spec, rate };
      const run = await measureOnce({
        spec: atRate,
        variant,
        measurement,
        settings: measurementSettings(config, atRate),
        repetition: `-knee${measured.length + 1}`,
      });
      const judged = benchmarkSlo(config, { ...spec, runs: [run], summary: summarizeRuns([run]) });
      measured.push({ rate, judged });
      const outcome = outcomeOf(judged);
      onStep(benchmark, rate, outcome);
      return outcome;
    };
    try {
      knees.push({ benchmark, about, ...(await searchKnee({ probe, start: startOf(spec), ...limits })), measured });
    } catch (error) {
      if (!(error instanceof PerfgateError)) throw error;
      knees.push({ benchmark, about, failed: error.message, measured });
    }
  }
  return knees;
}

const rateText = (rate) => `${rate.toLocaleString('en-US')} req/s`;

// One line per benchmark: the knee and the interval it lies in, and why the search stopped.
export function kneeLines(knees) {
  return knees.map((each) => {
    if (each.failed) return `${each.benchmark}: no knee, a load failed: ${each.failed}`;
    if (each.skipped) return `${each.benchmark}: skipped: ${each.skipped}`;
    const [held, broke] = each.interval;
    const upper =
      broke === null
        ? 'no rate tried broke an SLO'
        : each.clientBound
          ? `the client could not hold ${rateText(broke)}`
          : `an SLO broke at ${rateText(broke)}`;
    const knee = held === null ? 'no rate tried held every SLO' : `knee ${rateText(held)}`;
    return `${each.benchmark}: ${knee}; ${upper} (${each.steps.length} steps, stopped by ${each.stoppedBy})`;
  });
}

// <outDir>/knee.json: what was searched for, and each benchmark's search with its judged loads.
export function writeKnees(outDir, config, knees) {
  mkdirSync(outDir, { recursive: true });
  const searched = { suite: config.name, engine: config.engine, slo: config.slo, benchmarkSlo: config.benchmarkSlo };
  writeFileAtomicSync(join(outDir, 'knee.json'), `${JSON.stringify({ ...searched, knees }, null, 2)}\n`);
}
