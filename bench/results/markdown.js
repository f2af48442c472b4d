import { DEFAULT_ENGINE } from '../measurement/engines/seam.js';
import { integer, microseconds, milliseconds as ms, percentValue as pct } from '../core/format.js';
import { METRIC_REGISTRY, summaryValue } from './metrics.js';
import { describePinning } from '../measurement/pinning.js';
import { SYSTEM } from '../measurement/runtime/spec.js';
import { oneLine } from '../core/text.js';
import { isOpen, loadPointOf, loadTag } from '../../site/shared/load-point.js';
import { timeoutOnsetLines } from './timeout-onset.js';

// The run's table with the proxy-baseline study's columns, plus the failures and warnings
// that a reader must see next to the numbers. A metric with a `table` entry in the registry
// (site/shared/metrics.js) has its column after the one it names; the rest are the summary's.

// The formats a registry entry's table column may name.
export const TABLE_FORMATS = { integer, milliseconds: ms, microseconds, percentValue: pct };

const SUMMARY_COLUMNS = [
  { title: 'Avg Latency', cell: (summary) => ms(summary.latencyMs.avg) },
  { title: 'Max Latency', cell: (summary) => ms(summary.latencyMs.max) },
  { title: 'Total Requests', cell: (summary) => integer(summary.requests.total) },
  { title: 'Timeouts', cell: (summary) => integer(summary.timeouts) },
  { title: 'Timeout %', cell: (summary) => pct(summary.timeoutPct) },
  { title: 'Total Errors', cell: (summary) => integer(summary.errors) },
];

const LEADING = ['Server', 'Connections'];

// Where a column that follows `after` goes among the value columns: at the end when no column
// has that title.
function insertionPoint(columns, after) {
  if (after === LEADING.at(-1)) return 0;
  const index = columns.findIndex((each) => each.title === after);
  return index === -1 ? columns.length : index + 1;
}

function valueColumns() {
  const columns = [...SUMMARY_COLUMNS];
  for (const metric of METRIC_REGISTRY.filter((each) => each.table)) {
    const { title, format: formatName, after } = metric.table;
    const column = {
      title,
      metric,
      cell: (summary) => {
        const value = summaryValue(metric, summary);
        // Absent (the summary's warnings say why), never a zero.
        return value === null ? '—' : TABLE_FORMATS[formatName](value);
      },
    };
    columns.splice(insertionPoint(columns, after), 0, column);
  }
  return columns;
}

const VALUE_COLUMNS = valueColumns();

// A summarised metric's column (one only some runs measure: the runtime agent's, opt-in) is shown
// when a benchmark of the run has it; the others always are.
const valueColumnsOf = (result) =>
  VALUE_COLUMNS.filter(
    ({ metric }) =>
      !metric?.summarise ||
      result.benchmarks.some((benchmark) => benchmark.summary && summaryValue(metric, benchmark.summary) !== null),
  );

// A table cell must not break the table, nor be read as markup.
const cell = (text) =>
  String(text).replace(/[|\n<>]/g, (char) => ({ '|': '\\|', '\n': ' ', '<': '&lt;', '>': '&gt;' })[char]);

// A built-in reference beside a project's servers is marked as the trend site marks it.
function label(benchmark) {
  return `${benchmark.variant}${benchmark.reference ? ' (reference)' : ''} ${benchmark.scenario}${benchmark.tags.length ? ` [${benchmark.tags.join(',')}]` : ''}`;
}

// The exact runtime of a benchmark, for a run on runtimes other than the default.
const runtimeOf = (benchmark, result) => {
  const runtime = result.runtimes?.find((each) => each.spec === (benchmark.runtime ?? SYSTEM));
  if (!runtime) return benchmark.runtime ?? SYSTEM;
  return runtime.spec === SYSTEM ? `system (${runtime.name} ${runtime.version})` : `${runtime.name} ${runtime.version}`;
};
const onRuntimes = (result) => result.benchmarks.some((benchmark) => benchmark.runtime);

// A run of connection tiers only keeps its Connections column; one with rates names each row's
// load point (c=10, r=2000), so the latency columns read against the offered rate.
const hasRates = (result) => result.benchmarks.some((benchmark) => isOpen(loadPointOf(benchmark)));
const RATED_TITLE = 'Load';

function row(benchmark, rated, valueColumns) {
  const { summary } = benchmark;
  const load = rated ? loadTag(loadPointOf(benchmark)) : benchmark.connections;
  if (benchmark.status !== 'ok') {
    return [label(benchmark), load, benchmark.status, ...valueColumns.slice(1).map(() => '')];
  }
  return [label(benchmark), load, ...valueColumns.map((column) => column.cell(summary))];
}

export function markdownTable(result) {
  // On runtimes other than the default, a column names each row's runtime; the rows of one
  // benchmark on its runtimes are adjacent (bench/measurement/specs.js), so they read side by side.
  const withRuntime = onRuntimes(result);
  const rated = hasRates(result);
  const leading = rated ? [LEADING[0], RATED_TITLE] : LEADING;
  const valueColumns = valueColumnsOf(result);
  const titles = [...leading, ...valueColumns.map((column) => column.title)];
  const columns = withRuntime ? ['Server', 'Runtime', ...titles.slice(1)] : titles;
  const cells = (benchmark) => {
    const [server, ...rest] = row(benchmark, rated, valueColumns);
    return withRuntime ? [server, runtimeOf(benchmark, result), ...rest] : [server, ...rest];
  };
  const lines = [
    `### perfgate: ${cell(result.suite)}`,
    '',
    `| ${columns.join(' | ')} |`,
    `|${columns.map((_, i) => (i < columns.length - valueColumns.length ? ' --- ' : ' ---: ')).join('|')}|`,
    ...result.benchmarks.map((benchmark) => `| ${cells(benchmark).map(cell).join(' | ')} |`),
    ...timeoutOnsetLines(result.benchmarks, (benchmark) =>
      cell(`${label(benchmark)}${benchmark.runtime ? ` on ${benchmark.runtime}` : ''}`),
    ),
  ];
  const notes = result.benchmarks.flatMap((benchmark) => [
    ...(benchmark.reason ? [`**${cell(benchmark.id)}** ${benchmark.status}: ${cell(oneLine(benchmark.reason))}`] : []),
    ...(benchmark.summary?.warnings ?? []).map((warning) => `**${cell(benchmark.id)}**: ${cell(warning)}`),
  ]);
  if (notes.length) lines.push('', ...notes.map((note) => `- ${note}`));
  lines.push(
    '',
    `<sub>${cell(result.machine.cpuModel)} x${result.machine.cores}, Node ${result.machine.node}, ` +
      `pinning: ${cell(describePinning(result.pinning))}, engine ${cell(result.config.engine ?? DEFAULT_ENGINE)}, commit ${result.git.commit?.slice(0, 8) ?? 'none'}</sub>`,
    '',
  );
  return lines.join('\n');
}
