// View 2: req/s and error % against connections for each variant at one commit, with
// the saturation knee: the first tier where errors plus timeouts pass 1 % or req/s falls
// more than 10 % below the best of the tiers up to it; and at rates (r=N), the latency
// percentiles and error % against the offered rate.
import { variantLabel } from '../shared/bench-name.js';
import { numericFact } from '../shared/extra.js';
import { matchesFilters } from './filters.js';
import { latestAt } from './series.js';

const KNEE_FAILURE_PCT = 1;
const KNEE_DROP = 0.1;

// errors % + timeouts % from extra when perfgate wrote them, else the "error %" metric.
function failurePct(samples) {
  const facts = samples[0].facts;
  const errors = numericFact(facts, 'errors %');
  if (errors !== null) return errors + (numericFact(facts, 'timeouts %') ?? 0);
  return samples.find((sample) => sample.metric === 'error %')?.value ?? null;
}

const round = (value) => Math.round(value * 10) / 10;

// points sorted by tier: [{ tier, reqPerSec, failurePct }] -> { tier, reason } or null
export function findKnee(points) {
  let peak = -Infinity;
  for (const { tier, reqPerSec, failurePct: failed } of points) {
    if (failed !== null && failed > KNEE_FAILURE_PCT) return { tier, reason: `errors + timeouts ${round(failed)} %` };
    if (reqPerSec === null) continue;
    if (reqPerSec < (1 - KNEE_DROP) * peak)
      return { tier, reason: `req/s ${round(100 * (1 - reqPerSec / peak))} % below peak` };
    peak = Math.max(peak, reqPerSec);
  }
  return null;
}

const groupBy = (items, keyOf) => {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(item);
  }
  return groups;
};

const metricValue = (samples, metric) => samples.find((sample) => sample.metric === metric)?.value ?? null;

// Per scenario, its load points of one kind (`load`: 'tier' or 'rate') and a line per variant
// across them, each point pointAt(load point, its samples). The tier filter does not apply: the
// curve is across load points.
function loadCurves(data, commit, state, load, pointAt) {
  const samples = latestAt(data.samples, commit).filter(
    (sample) => sample.variant !== null && sample[load] !== null && matchesFilters(sample, state, { ignore: ['tier'] }),
  );
  return [...groupBy(samples, (sample) => sample.scenario)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, ofScenario]) => ({
      scenario,
      loads: [...new Set(ofScenario.map((sample) => sample[load]))].sort((a, b) => a - b),
      variants: [...groupBy(ofScenario, variantLabel)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([variant, ofVariant]) => ({
          variant,
          points: [...groupBy(ofVariant, (sample) => sample[load])]
            .sort(([a], [b]) => a - b)
            .map(([point, ofPoint]) => pointAt(point, ofPoint)),
        })),
    }));
}

// The tier curves: per scenario, a line per variant of req/s and errors + timeouts % at each
// connection tier, with its saturation knee.
export const tierCurves = (data, commit, state) =>
  loadCurves(data, commit, state, 'tier', (tier, samples) => ({
    tier,
    reqPerSec: metricValue(samples, 'req/s'),
    failurePct: failurePct(samples),
  })).map(({ scenario, loads, variants }) => ({
    scenario,
    tiers: loads,
    variants: variants.map(({ variant, points }) => ({ variant, points, knee: findKnee(points) })),
  }));

// The rate curves: per scenario, a line per variant of p50 and p99 latency and errors + timeouts %
// at each offered rate. The tier filter does not apply: rates are not tiers.
export const rateCurves = (data, commit, state) =>
  loadCurves(data, commit, state, 'rate', (rate, samples) => ({
    rate,
    p50: metricValue(samples, 'p50 latency'),
    p99: metricValue(samples, 'p99 latency'),
    failurePct: failurePct(samples),
  })).map(({ scenario, loads, variants }) => ({ scenario, rates: loads, variants }));
