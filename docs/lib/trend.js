// View 1: each benchmark over commits. One group (chart) per metric, scenario and tier,
// one series per variant; a point is marked when it is worse than the previous point of
// the same bench by more than the alert threshold, and carries the compare verdict if any.
import { byMetric, chosenMetrics, matchesFilters } from './filters.js';
import { verdictFor } from './verdicts.js';

// The action's alert ratio: above 1 means worse, whichever way "better" points.
export function worseRatio(previous, current, biggerIsBetter) {
  const [numerator, denominator] = biggerIsBetter ? [previous, current] : [current, previous];
  if (numerator === denominator) return 1;
  return denominator === 0 ? Infinity : numerator / denominator;
}

const groupKeyOf = (sample) =>
  sample.variant === null ? `${sample.metric}\u0000${sample.key}` : `${sample.metric}\u0000${sample.scenario}\u0000${sample.tier}`;
const titleOf = (sample) => (sample.variant === null ? sample.id : `${sample.scenario} c=${sample.tier} · ${sample.metric}`);

function compareGroups(a, b) {
  return byMetric(a.metric, b.metric) || a.order.localeCompare(b.order) || (a.tier ?? 0) - (b.tier ?? 0);
}

// Commits at which each suite measured anything: a bench missing from one of them has a
// gap there (it disappeared for a while), which the chart shows as a break in the line.
function commitsBySuite(samples) {
  const bySuite = new Map();
  for (const { suite, commit } of samples) {
    if (!bySuite.has(suite)) bySuite.set(suite, new Set());
    bySuite.get(suite).add(commit);
  }
  // commit index -> its position among the suite's measured commits
  return new Map([...bySuite].map(([suite, commits]) => [suite, new Map([...commits].sort((a, b) => a - b).map((commit, position) => [commit, position]))]));
}

function seriesPoints(samples, positions, { commits, threshold, verdicts }) {
  const sorted = [...samples].sort((a, b) => a.commit - b.commit);
  return sorted.map((sample, index) => {
    const previous = sorted[index - 1];
    const ratio = previous ? worseRatio(previous.value, sample.value, sample.biggerIsBetter) : null;
    const gapBefore = Boolean(previous) && positions.get(sample.commit) - positions.get(previous.commit) > 1;
    return {
      commit: sample.commit,
      value: sample.value,
      range: sample.range,
      change: previous && previous.value !== 0 ? (sample.value - previous.value) / previous.value : null,
      regression: ratio !== null && ratio > threshold,
      verdict: verdictFor(verdicts, commits[sample.commit].id, sample.name),
      gapBefore,
    };
  });
}

export function trendGroups(data, state, choices, verdicts) {
  const metrics = chosenMetrics(state, choices);
  const measured = commitsBySuite(data.samples);
  const groups = new Map();
  for (const sample of data.samples) {
    if (!metrics.includes(sample.metric) || !matchesFilters(sample, state)) continue;
    const key = groupKeyOf(sample);
    if (!groups.has(key)) {
      groups.set(key, {
        key,
        title: titleOf(sample),
        metric: sample.metric,
        unit: sample.unit,
        biggerIsBetter: sample.biggerIsBetter,
        order: sample.scenario ?? sample.id,
        tier: sample.tier,
        benches: new Map(),
      });
    }
    const benches = groups.get(key).benches;
    if (!benches.has(sample.key)) benches.set(sample.key, []);
    benches.get(sample.key).push(sample);
  }
  const context = { commits: data.commits, threshold: state.threshold, verdicts };
  return [...groups.values()].sort(compareGroups).map(({ benches, order, ...group }) => ({
    ...group,
    series: [...benches.values()]
      .map((samples) => ({
        label: samples[0].variant ?? samples[0].name,
        name: samples[0].name,
        points: seriesPoints(samples, measured.get(samples[0].suite), context),
      }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  }));
}

// The marked points of the shown groups, newest first: the "since when" list under the charts.
export function markedPoints(groups) {
  return groups
    .flatMap((group) =>
      group.series.flatMap((series) =>
        series.points
          .filter((point) => point.regression || point.verdict === 'regression' || point.verdict === 'improvement')
          .map((point) => ({ ...point, name: series.name, unit: group.unit }))))
    .sort((a, b) => b.commit - a.commit || a.name.localeCompare(b.name));
}
