// The relative change from paired rounds: round i of base and round i of head ran back to back (ABBA), so a
// slow phase of the machine hits both and cancels in their ratio. The per-round log ratios ln(head_i / base_i)
// are summarised by Hodges–Lehmann with the signed-rank interval, which a burst wrecking one round cannot
// drag the way it drags a mean and a variance. Back on the ratio scale: change = e^x - 1.
import { DEFAULTS } from './defaults.js';
import { hodgesLehmann, signedRankTest } from './signed-rank.js';

// A round that measured 0 (a latency below the resolution) has no ratio: then there is no interval.
export function pairedRatio(base, head, { confidence = DEFAULTS.confidence, equivalenceConfidence = confidence } = {}) {
  if (base.length !== head.length)
    throw new RangeError(`paired rounds need as many base as head samples, not ${base.length} and ${head.length}`);
  if (![...base, ...head].every((value) => value > 0))
    return { change: null, ci: null, equivalenceCi: null, pValue: null, reason: 'a round measured 0' };
  const logRatios = base.map((baseValue, index) => Math.log(head[index] / baseValue));
  const { estimate, intervalAt } = hodgesLehmann(logRatios);
  const ratioInterval = (level) => intervalAt(level)?.map(Math.expm1) ?? null;
  return {
    change: Math.expm1(estimate),
    ci: ratioInterval(confidence),
    equivalenceCi: ratioInterval(equivalenceConfidence),
    pValue: signedRankTest(logRatios).pValue,
  };
}
