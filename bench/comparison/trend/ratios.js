// The relative trend's numbers: per benchmark and judged metric (bench/results/metrics.js), the ratio
// head / baseline with its 95 % interval, from a comparison's verdicts (compare's paired
// estimate: change = ratio - 1); chained over the re-anchor links back to the line's origin;
// and written as github-action-benchmark benches, one more per benchmark and metric:
//   "express json c=100 - CPU µs/request vs baseline"   unit %, value 100 x ratio,
//   range "95% CI 97.81 to 99.20"                        (the action shows it in its tooltip)
// in two suites of their own (a suite has one direction: the action's `tool`), named after the
// project (bench/results/benchmark-action.js: trendSuiteNames).
import {
  baseMetricOf,
  parseRange,
  RELATIVE_UNIT,
  rangeText,
  relativeMetricName,
} from '../../../site/shared/relative.js';
import { JUDGED_METRICS, metricByName } from '../../results/metrics.js';
import { chainOf } from './anchors.js';

export { parseRange, rangeText };

// The names and the range text are the trend site's too (site/shared/relative.js).
export const relativeName = (id, metric) => `${id} - ${relativeMetricName(metric)}`;
// The metric of a relative line's name, or null for any other name.
export const relativeMetric = (name) => {
  const metric = baseMetricOf(/ - (.+)$/.exec(name)?.[1]);
  return metric && metricByName(metric) ? metric : null;
};

const percent = (ratio) => Math.round(ratio * 10000) / 100;

/**
 * The ratios of a comparison (bench/comparison/run-comparison.js): { [relative name]: { id, metric,
 * direction, ratio, ci } } for every measured benchmark and judged metric with an interval.
 */
export function directRatios(comparison) {
  const ratios = {};
  for (const benchmark of comparison.benchmarks.filter((each) => each.status === 'ok')) {
    for (const metric of JUDGED_METRICS) {
      const verdict = benchmark.verdicts[metric.name];
      if (!verdict?.ci || typeof verdict.change !== 'number') continue;
      ratios[relativeName(benchmark.id, metric.name)] = {
        id: benchmark.id,
        metric: metric.name,
        direction: metric.direction,
        ratio: 1 + verdict.change,
        ci: verdict.ci.map((change) => 1 + change),
      };
    }
  }
  return ratios;
}

/**
 * A product of independent ratios, each with its interval: the ratios multiply, and each side of
 * the interval combines in log space (distances from the ratio in quadrature, as for independent
 * normal log-ratios), so a chain's interval is never narrower than any of its links.
 */
export function chainRatios(factors) {
  const ratio = factors.reduce((product, each) => product * each.ratio, 1);
  const spread = (side) => Math.sqrt(factors.reduce((sum, each) => sum + side(each) ** 2, 0));
  const below = spread((each) => Math.log(each.ratio / each.ci[0]));
  const above = spread((each) => Math.log(each.ci[1] / each.ratio));
  return { ratio, ci: [ratio * Math.exp(-below), ratio * Math.exp(above)] };
}

const refText = (anchor) => `${anchor.ref} (${anchor.sha.slice(0, 12)})`;
const pctText = (ratio, ci) => `${percent(ratio).toFixed(2)} % (${rangeText(ci)})`;

/**
 * The github-action-benchmark benches of one trend run: each direct ratio chained to its line's
 * origin. `state`: the baselines file (anchors.js); `head`: { sha } of the measured commit.
 * @returns {{bigger: object[], smaller: object[]}}
 */
export function trendBenches(ratios, state) {
  const files = { bigger: [], smaller: [] };
  const anchor = state.anchors.at(-1);
  for (const [name, direct] of Object.entries(ratios)) {
    const { origin, links } = chainOf(state, name);
    const chained = chainRatios([direct, ...links]);
    files[direct.direction].push({
      name,
      unit: RELATIVE_UNIT,
      value: percent(chained.ratio),
      range: rangeText(chained.ci),
      extra: [
        `baseline: ${refText(anchor)}`,
        `relative to: ${refText(origin)}`,
        `measured: ${pctText(direct.ratio, direct.ci)} of ${anchor.ref}`,
        ...links.map((link) => `link ${link.from} → ${link.to}: ${pctText(link.ratio, link.ci)}`),
      ].join('\n'),
    });
  }
  return files;
}
