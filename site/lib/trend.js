// View 1: each benchmark over its suite's commits, under a heading per suite. Data of any
// tool: one chart per bench, as the action's own page draws it. perfgate's names (variant,
// scenario, tier): one chart per metric, scenario and tier with a line per variant.
// The action's neighbour-ratio mark is opt-in (state.threshold, null when off).
import { byLoad, sampleLoadTag, variantLabel } from '../shared/bench-name.js';
import { byMetric, chosenMetrics, matchesFilters, searchMatcher } from './filters.js';
import { baseMetricOf, parseRange } from '../shared/relative.js';
import { seriesByKey } from './series.js';

// The action's alert ratio: above 1 means worse, whichever way "better" points.
export function worseRatio(previous, current, biggerIsBetter) {
  const [numerator, denominator] = biggerIsBetter ? [previous, current] : [current, previous];
  if (numerator === denominator) return 1;
  return denominator === 0 ? Infinity : numerator / denominator;
}

const isPerfgate = (sample) => sample.variant !== null;
// A tier's group is keyed by its connections, a rate's by its tag: r= lines never join c= ones.
const loadKeyOf = (sample) => (sample.rate === null ? sample.tier : sampleLoadTag(sample));
const groupKeyOf = (sample) =>
  isPerfgate(sample)
    ? `${sample.suite}\u0000${sample.metric}\u0000${sample.scenario}\u0000${loadKeyOf(sample)}`
    : sample.key;
const titleOf = (sample) =>
  isPerfgate(sample)
    ? `${[sample.scenario, sampleLoadTag(sample)].filter(Boolean).join(' ')} · ${sample.metric}`
    : sample.name;

// perfgate groups by metric, scenario and load point; other benches keep the order of the file.
function compareGroups(a, b) {
  if (a.perfgate !== b.perfgate) return a.perfgate ? -1 : 1;
  if (!a.perfgate) return a.first - b.first;
  // A project's own servers first, the references measured beside them after.
  if (a.reference !== b.reference) return a.reference ? 1 : -1;
  return byMetric(a.metric, b.metric) || a.scenario.localeCompare(b.scenario) || byLoad(a, b);
}

function seriesPoints(samples, threshold) {
  return samples.map((sample, index) => {
    const previous = samples[index - 1];
    const ratio =
      previous && threshold !== null ? worseRatio(previous.value, sample.value, sample.biggerIsBetter) : null;
    return {
      x: sample.slot,
      value: sample.value,
      sample,
      change: previous && previous.value !== 0 ? (sample.value - previous.value) / previous.value : null,
      regression: ratio !== null && ratio > threshold,
      // The bench was missing from commits its suite measured: the line breaks there.
      gapBefore: Boolean(previous) && sample.slot - previous.slot > 1,
      // A relative line's 95 % interval (site/shared/relative.js), drawn as a band; else null.
      band: parseRange(sample.range),
    };
  });
}

// series: seriesByKey(data.samples), which the page computes once for every view. A series is
// shown or not as a whole, by what its first run says (suite, name, metric, variant ...).
export function trendSections(data, state, choices, series = seriesByKey(data.samples)) {
  const metrics = new Set(chosenMetrics(state, choices));
  const matchesSearch = searchMatcher(state.search);
  const groups = new Map();
  for (const [key, samples] of series) {
    const first = samples[0];
    if (!metrics.has(first.metric) || !matchesFilters(first, state) || !matchesSearch(first)) continue;
    const groupKey = groupKeyOf(first);
    if (!groups.has(groupKey)) {
      groups.set(groupKey, {
        key: groupKey,
        suite: first.suite,
        title: titleOf(first),
        metric: first.metric,
        scenario: first.scenario,
        tier: first.tier,
        rate: first.rate,
        unit: first.unit,
        biggerIsBetter: first.biggerIsBetter,
        // A relative trend line ("... vs baseline"): head as a percentage of the pinned baseline.
        relative: baseMetricOf(first.metric) !== null,
        perfgate: isPerfgate(first),
        reference: Boolean(first.reference),
        first: groups.size,
        series: [],
      });
    }
    groups.get(groupKey).series.push({
      key,
      label: first.variant ? variantLabel(first) : first.name,
      name: first.name,
      points: seriesPoints(samples, state.threshold),
    });
  }
  const slotsOf = new Map(data.suites.map((suite) => [suite.name, suite.slots]));
  return data.suites
    .map((suite) => ({
      suite: suite.name,
      groups: [...groups.values()]
        .filter((group) => group.suite === suite.name)
        .sort(compareGroups)
        .map(({ first, perfgate, reference, scenario, tier, rate, ...group }) => ({
          ...group,
          // A chart of one server's line names the server (an app measures one).
          title: perfgate && group.series.length === 1 ? `${group.series[0].label} · ${group.title}` : group.title,
          slots: slotsOf.get(suite.name),
          series: group.series.sort((a, b) => a.label.localeCompare(b.label)),
        })),
    }))
    .filter((section) => section.groups.length > 0);
}

// The neighbour-ratio marks of the shown groups, newest first (only when the mark is on).
export function markedPoints(sections) {
  return sections
    .flatMap((section) => section.groups)
    .flatMap((group) =>
      group.series.flatMap((series) =>
        series.points
          .filter((point) => point.regression)
          .map((point) => ({ ...point, name: series.name, suite: group.suite, unit: group.unit })),
      ),
    )
    .sort((a, b) => b.sample.date - a.sample.date || a.name.localeCompare(b.name));
}
