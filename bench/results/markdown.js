import { describePinning } from '../pinning.js';

// The run's table with the proxy-baseline study's columns, plus the failures and warnings
// that a reader must see next to the numbers.

const COLUMNS = ['Server', 'Connections', 'Requests/sec', 'Avg Latency', 'Max Latency', 'Total Requests',
  'Timeouts', 'Timeout %', 'Total Errors', 'Error %'];

const integer = (value) => Math.round(value).toLocaleString('en-US');
const ms = (value) => `${value} ms`;
const pct = (value) => `${value.toFixed(2)} %`;
// A table cell must not break the table, nor be read as markup.
const cell = (text) => String(text).replace(/[|\n<>]/g, (char) => ({ '|': '\\|', '\n': ' ', '<': '&lt;', '>': '&gt;' })[char]);

function label(benchmark) {
  return `${benchmark.variant} ${benchmark.scenario}${benchmark.tags.length ? ` [${benchmark.tags.join(',')}]` : ''}`;
}

function row(benchmark) {
  const { summary } = benchmark;
  if (benchmark.status !== 'ok') {
    return [label(benchmark), benchmark.connections, benchmark.status, '', '', '', '', '', '', ''];
  }
  return [label(benchmark), benchmark.connections, integer(summary.requests.mean), ms(summary.latencyMs.avg),
    ms(summary.latencyMs.max), integer(summary.requests.total), integer(summary.timeouts), pct(summary.timeoutPct),
    integer(summary.errors), pct(summary.errorPct)];
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
    ...(benchmark.reason ? [`**${cell(benchmark.id)}** ${benchmark.status}: ${cell(benchmark.reason.split('\n')[0])}`] : []),
    ...(benchmark.summary?.warnings ?? []).map((warning) => `**${cell(benchmark.id)}**: ${cell(warning)}`),
  ]);
  if (notes.length) lines.push('', ...notes.map((note) => `- ${note}`));
  lines.push('', `<sub>${cell(result.machine.cpuModel)} x${result.machine.cores}, Node ${result.machine.node}, `
    + `pinning: ${cell(describePinning(result.pinning))}, commit ${result.git.commit?.slice(0, 8) ?? 'none'}</sub>`, '');
  return lines.join('\n');
}
