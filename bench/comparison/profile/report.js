// The differential profile as markdown: the functions whose CPU cost per request grew most,
// then those that shrank most. The tables come from numbers and a `quote` for text cells, so
// the report (escaped names, links to the kept profiles) and the PR comment (code spans for
// an untrusted artifact) share them.
import { relative } from 'node:path';
import { escapeMarkdown as escapeCell } from '../../core/text.js';

const micros = (value) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(1) : value.toFixed(2);
const signedMicros = (value) => `${value >= 0 ? '+' : '−'}${micros(Math.abs(value))}`;
const HEADER = [
  '| function | where | package | base µs/req | head µs/req | change |',
  '| --- | --- | --- | ---: | ---: | ---: |',
];

function table(list, quote) {
  if (!list.length) return [...HEADER, '| (none) | | | | | |'];
  return [
    ...HEADER,
    ...list.map(
      (row) =>
        `| ${quote(row.functionName)} | ${quote(row.path ? `${row.path}:${row.line}` : '(native)')} | ${quote(row.package)} | ${micros(row.base)} | ${micros(row.head)} | ${signedMicros(row.change)} |`,
    ),
  ];
}

/** @param {object} profile  a benchmark's `profile`: { grew, shrank, totals } or { skipped } */
export function profileTables(profile, quote) {
  if (profile.skipped) return [`Profile not taken: ${quote(profile.skipped)}`, ''];
  return [
    `Self time per request, base ${micros(profile.totals.base)} µs → head ${micros(profile.totals.head)} µs, from one more run of both sides at the same time with the V8 profiler on. The profiler samples wall time, so on a busy machine these exceed the CPU µs/request above: read them as shares, and a function at 0 on the base side as new.`,
    '',
    '**Grew most**',
    '',
    ...table(profile.grew, quote),
    '',
    '**Shrank most**',
    '',
    ...table(profile.shrank, quote),
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
