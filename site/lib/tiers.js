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

// The tier filter does not apply here: the curve is across tiers.
export function tierCurves(data, commit, state) {
  const samples = latestAt(data.samples, commit).filter(
    (sample) => sample.variant !== null && sample.tier !== null && matchesFilters(sample, state, { ignore: ['tier'] }),
  );
  return [...groupBy(samples, (sample) => sample.scenario)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, ofScenario]) => {
      const variants = [...groupBy(ofScenario, variantLabel)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([variant, ofVariant]) => {
          const points = [...groupBy(ofVariant, (sample) => sample.tier)]
            .sort(([a], [b]) => a - b)
            .map(([tier, ofTier]) => ({
              tier,
              reqPerSec: ofTier.find((sample) => sample.metric === 'req/s')?.value ?? null,
              failurePct: failurePct(ofTier),
            }));
          return { variant, points, knee: findKnee(points) };
        });
      const tiers = [...new Set(ofScenario.map((sample) => sample.tier))].sort((a, b) => a - b);
      return { scenario, tiers, variants };
    });
}

const metricValue = (samples, metric) => samples.find((sample) => sample.metric === metric)?.value ?? null;

// The rate curves: per scenario, a line per variant of p50 and p99 latency and errors + timeouts %
// at each offered rate. The tier filter does not apply: rates are not tiers.
export function rateCurves(data, commit, state) {
  const samples = latestAt(data.samples, commit).filter(
    (sample) => sample.variant !== null && sample.rate !== null && matchesFilters(sample, state, { ignore: ['tier'] }),
  );
  return [...groupBy(samples, (sample) => sample.scenario)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, ofScenario]) => {
      const variants = [...groupBy(ofScenario, variantLabel)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([variant, ofVariant]) => ({
          variant,
          points: [...groupBy(ofVariant, (sample) => sample.rate)]
            .sort(([a], [b]) => a - b)
            .map(([rate, ofRate]) => ({
              rate,
              p50: metricValue(ofRate, 'p50 latency'),
              p99: metricValue(ofRate, 'p99 latency'),
              failurePct: failurePct(ofRate),
            })),
        }));
      const rates = [...new Set(ofScenario.map((sample) => sample.rate))].sort((a, b) => a - b);
      return { scenario, rates, variants };
    });
}
