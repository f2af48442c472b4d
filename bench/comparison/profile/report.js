// The differential profile as markdown: the functions whose CPU cost per request grew most,
// then those that shrank most. The tables come from numbers and a `quote` for text cells, so
// the report (escaped names, links to the kept profiles) and the PR comment (code spans for
// an untrusted artifact) share them.
import { relative } from 'node:path';
import { escapeMarkdown as escapeCell } from '../../core/text.js';

const micros = (value) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(1) : value.toFixed(2);
const signedMicros = (value) => `${value >= 0 ? '+' : '−'}${micros(Math.abs(value))}`;
const withUncertainty = (row) =>
  row.uncertainty === undefined ? signedMicros(row.change) : `${signedMicros(row.change)} ± ${micros(row.uncertainty)}`;

// Beyond its sampling noise: a change its uncertainty does not reach back to zero from.
const certain = (row) => Math.abs(row.change) > (row.uncertainty ?? 0);

const FUNCTION_HEADER = [
  '| function | where | package | base µs/req | head µs/req | change |',
  '| --- | --- | --- | ---: | ---: | ---: |',
];
const PACKAGE_HEADER = ['| package | base µs/req | head µs/req | change |', '| --- | ---: | ---: | ---: |'];

function table(header, list, cells) {
  const empty = `| (none) |${' |'.repeat(header[1].split('|').length - 3)}`;
  return [...header, ...(list.length ? list.map((row) => `| ${cells(row).join(' | ')} |`) : [empty])];
}

const functionCells = (quote) => (row) => [
  quote(row.functionName),
  quote(row.path ? `${row.path}:${row.line}` : '(native)'),
  quote(row.package),
  micros(row.base),
  micros(row.head),
  withUncertainty(row),
];

const packageCells = (quote) => (row) => [
  quote(row.package),
  micros(row.base),
  micros(row.head),
  `${withUncertainty(row)}${certain(row) ? '' : ' (noise)'}`,
];

// The profile's first line: the package that grew most beyond its noise, in the reader's words.
function packageHeadline(packages, quote) {
  const grown = packages.filter((row) => row.change > 0 && certain(row)).sort((a, b) => b.change - a.change)[0];
  if (!grown) return "No package grew beyond the profile's sampling noise.";
  return `Grew most: ${quote(grown.package)}: ${signedMicros(grown.change)} µs/request, ${micros(grown.base)} → ${micros(grown.head)}.`;
}

/** @param {object} profile  a benchmark's `profile`: { packages, grew, shrank, totals } or { skipped } */
export function profileTables(profile, quote) {
  if (profile.skipped) return [`Profile not taken: ${quote(profile.skipped)}`, ''];
  return [
    `Self time per request, base ${micros(profile.totals.base)} µs → head ${micros(profile.totals.head)} µs, from one more run of both sides at the same time with the V8 profiler on. The profiler samples wall time, so on a busy machine these exceed the CPU µs/request above: read them as shares, and a function at 0 on the base side as new. ± is the sampling uncertainty (about 95 %).`,
    '',
    ...(profile.packages
      ? [
          packageHeadline(profile.packages, quote),
          '',
          "**By package** (each sample charged to the package whose code is nearest on its stack: Node's own and native time count for the package that called it; V8 records the garbage collector with no caller, so it stays a row of its own)",
          '',
          ...table(PACKAGE_HEADER, profile.packages, packageCells(quote)),
          '',
        ]
      : []),
    '**Grew most**',
    '',
    ...table(FUNCTION_HEADER, profile.grew, functionCells(quote)),
    '',
    '**Shrank most**',
    '',
    ...table(FUNCTION_HEADER, profile.shrank, functionCells(quote)),
    '',
  ];
}

// For comparison.md and bisect.md: the tables and links to the kept profiles and flame graphs,
// relative to `linkFrom`, the folder the report is written to.
export function profileMarkdown(profile, { linkFrom } = {}) {
  const link = (file) => (linkFrom ? relative(linkFrom, file) : file);
  const files = (profile.files ?? []).map((file, index) => {
    const page = profile.flameGraphs?.[index];
    return `- [${escapeCell(link(file))}](${encodeURI(link(file))})${page ? ` ([flame graph](${encodeURI(link(page))}))` : ''}`;
  });
  return [
    ...profileTables(profile, escapeCell),
    ...(files.length ? ['Profiles (open in Chrome DevTools or speedscope):', ...files, ''] : []),
  ];
}
