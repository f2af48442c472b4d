import { describePinning } from '../pinning.js';

// The run's table with the proxy-baseline study's columns, plus the failures and warnings
// that a reader must see next to the numbers.

const COLUMNS = [
  'Server',
  'Connections',
  'Requests/sec',
  'Avg Latency',
  'p99 Latency',
  'Max Latency',
  'CPU µs/request',
  'Total Requests',
  'Timeouts',
  'Timeout %',
  'Total Errors',
  'Error %',
];

const integer = (value) => Math.round(value).toLocaleString('en-US');
// Latency keeps µs precision: a fast server's 0.42 ms must not show as 0.
export const ms = (value) => `${+value.toFixed(value < 10 ? 2 : 1)} ms`;
const micros = (value) => (value === null || value === undefined ? 'n/a' : `${+value.toFixed(1)} µs`);
const pct = (value) => `${value.toFixed(2)} %`;
// A table cell must not break the table, nor be read as markup.
const cell = (text) =>
  String(text).replace(/[|\n<>]/g, (char) => ({ '|': '\\|', '\n': ' ', '<': '&lt;', '>': '&gt;' })[char]);

function label(benchmark) {
  return `${benchmark.variant} ${benchmark.scenario}${benchmark.tags.length ? ` [${benchmark.tags.join(',')}]` : ''}`;
}

function row(benchmark) {
  const { summary } = benchmark;
  if (benchmark.status !== 'ok') {
    return [label(benchmark), benchmark.connections, benchmark.status, ...COLUMNS.slice(3).map(() => '')];
  }
  return [
    label(benchmark),
    benchmark.connections,
    integer(summary.requests.mean),
    ms(summary.latencyMs.avg),
    ms(summary.latencyMs.p99),
    ms(summary.latencyMs.max),
    micros(summary.cpuMicrosPerRequest),
    integer(summary.requests.total),
    integer(summary.timeouts),
    pct(summary.timeoutPct),
    integer(summary.errors),
    pct(summary.errorPct),
  ];
}

export function markdownTable(result) {
  const lines = [
    `### perfgate: ${cell(result.suite)}`,
    '',
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...result.benchmarks.map((benchmark) => `| ${row(benchmark).map(cell).join(' | ')} |`),
  ];
  const notes = result.benchmarks.flatMap((benchmark) => [
    ...(benchmark.reason
      ? [`**${cell(benchmark.id)}** ${benchmark.status}: ${cell(benchmark.reason.split('\n')[0])}`]
      : []),
    ...(benchmark.summary?.warnings ?? []).map((warning) => `**${cell(benchmark.id)}**: ${cell(warning)}`),
  ]);
  if (notes.length) lines.push('', ...notes.map((note) => `- ${note}`));
  lines.push(
    '',
    `<sub>${cell(result.machine.cpuModel)} x${result.machine.cores}, Node ${result.machine.node}, ` +
      `pinning: ${cell(describePinning(result.pinning))}, engine ${cell(result.config.engine ?? 'autocannon')}, commit ${result.git.commit?.slice(0, 8) ?? 'none'}</sub>`,
    '',
  );
  return lines.join('\n');
}
