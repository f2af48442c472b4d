// View 3: variants side by side at one commit, as in the frameworks study's table:
// one row per variant, runtime, scenario and tier, a column per metric, and req/s relative to the
// fastest variant of the same scenario and tier. The metric chips choose the columns.
import { byLoad, sampleLoadTag, variantLabel } from '../shared/bench-name.js';
import { byMetric, chosenMetrics, matchesFilters } from './filters.js';
import { latestAt } from './series.js';

const FIXED_COLUMNS = [
  { key: 'variant', label: 'variant', numeric: false },
  { key: 'scenario', label: 'scenario', numeric: false },
  { key: 'tier', label: 'connections', numeric: true, biggerIsBetter: false },
];
const caseOf = (row) => `${row.scenario} ${sampleLoadTag(row)}`;
// Rows at a rate (r=N) carry it; a column of their own shows it when there are any.
const RATE = { key: 'rate', label: 'offered rate', numeric: true, biggerIsBetter: false };
const RUNTIME = { key: 'runtime', label: 'runtime', numeric: false };
const RELATIVE = { key: 'vs best', label: 'vs best', numeric: true, biggerIsBetter: true };

export function variantTable(data, commit, state, choices) {
  const chosen = chosenMetrics(state, choices);
  const rows = new Map();
  const metrics = new Map();
  for (const sample of latestAt(data.samples, commit)) {
    if (sample.variant === null || !matchesFilters(sample, state)) continue;
    const rowKey = `${sample.variant}\u0000${sample.runtime}\u0000${sample.scenario}\u0000${sampleLoadTag(sample)}`;
    if (!rows.has(rowKey)) {
      rows.set(rowKey, {
        variant: sample.variant,
        runtime: sample.runtime,
        scenario: sample.scenario,
        tier: sample.tier,
        ...(sample.rate === null ? {} : { rate: sample.rate }),
        machine: [sample.facts.cpu, sample.facts.node].filter(Boolean).join(', node '),
        clientSaturated: sample.facts['client saturated'] === 'yes',
        values: {},
      });
    }
    rows.get(rowKey).values[sample.metric] = sample.value;
    if (chosen.includes(sample.metric))
      metrics.set(sample.metric, {
        key: sample.metric,
        label:
          sample.unit && !sample.metric.includes(sample.unit) ? `${sample.metric} (${sample.unit})` : sample.metric,
        unit: sample.unit,
        numeric: true,
        biggerIsBetter: sample.biggerIsBetter,
      });
  }
  const best = new Map();
  for (const row of rows.values())
    best.set(caseOf(row), Math.max(best.get(caseOf(row)) ?? 0, row.values['req/s'] ?? 0));
  for (const row of rows.values()) {
    const fastest = best.get(caseOf(row));
    if (row.values['req/s'] !== undefined && fastest > 0) row.values['vs best'] = row.values['req/s'] / fastest;
  }
  const metricColumns = [...metrics.values()].sort((a, b) => byMetric(a.key, b.key));
  // Runtimes side by side: a column of their own when the rows run on more than one.
  const runtimes = new Set([...rows.values()].map((row) => row.runtime));
  const byRuntime = runtimes.size > 1 ? [FIXED_COLUMNS[0], RUNTIME, ...FIXED_COLUMNS.slice(1)] : FIXED_COLUMNS;
  const fixed = [...rows.values()].some((row) => 'rate' in row) ? [...byRuntime, RATE] : byRuntime;
  const columns = [...fixed, ...metricColumns, ...(metrics.has('req/s') ? [RELATIVE] : [])];
  const machines = [...new Set([...rows.values()].map((row) => row.machine).filter(Boolean))];
  return { columns, rows: [...rows.values()], machines };
}

export const cellValue = (row, key) => (key in row ? row[key] : row.values[key]);

// sort: "<column>" ascending or "-<column>" descending; rows without the value go last.
// Ties keep the table's natural order: scenario, tier, then variant.
export function sortRows(rows, sort) {
  const descending = Boolean(sort?.startsWith('-'));
  const key = sort ? sort.replace(/^-/, '') : null;
  const natural = (a, b) =>
    a.scenario.localeCompare(b.scenario) ||
    byLoad(a, b) ||
    a.variant.localeCompare(b.variant) ||
    String(a.runtime).localeCompare(String(b.runtime));
  return [...rows].sort((a, b) => {
    if (key === null) return natural(a, b);
    const [x, y] = [cellValue(a, key), cellValue(b, key)];
    if (x === undefined || y === undefined) return (x === undefined) - (y === undefined) || natural(a, b);
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return (descending ? -order : order) || natural(a, b);
  });
}

// A first click sorts a column best-first; clicking the sorted column again flips it.
export function nextSort(current, column) {
  if (current === column.key) return `-${column.key}`;
  if (current === `-${column.key}`) return column.key;
  return column.numeric && column.biggerIsBetter ? `-${column.key}` : column.key;
}

// The bar chart: one group of bars per scenario and tier, one bar per variant.
export function barSeries(rows, metric) {
  const cases = [...new Set(sortRows(rows, null).map(caseOf))];
  const variants = [...new Set(rows.map(variantLabel))].sort();
  return {
    labels: cases,
    series: variants.map((variant) => ({
      label: variant,
      values: cases.map(
        (label) => rows.find((row) => variantLabel(row) === variant && caseOf(row) === label)?.values[metric] ?? null,
      ),
    })),
  };
}
