// The differential profile as markdown: the functions whose CPU cost per request grew most,
// then those that shrank most, and links to the kept profiles and their flame graphs.
import { relative } from 'node:path';
import { escapeCell } from '../compare/report.js';

const micros = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(1) : value.toFixed(2));
const signedMicros = (value) => `${value >= 0 ? '+' : '−'}${micros(Math.abs(value))}`;

function rows(list) {
  return list.map((row) => `| ${escapeCell(row.functionName)} | ${escapeCell(row.path ? `${row.path}:${row.line}` : '(native)')} | ${escapeCell(row.package)} | ${micros(row.base)} | ${micros(row.head)} | ${signedMicros(row.change)} |`);
}

const HEADER = ['| function | where | package | base µs/req | head µs/req | change |', '| --- | --- | --- | ---: | ---: | ---: |'];

/**
 * @param {object} profile  a benchmark's `profile` field: { grew, shrank, totals, files?, flameGraphs? } or { skipped }
 * @param {{linkFrom?: string}} options  the folder the report is written to, for relative links
 */
export function profileMarkdown(profile, { linkFrom } = {}) {
  if (profile.skipped) return [`Profile not taken: ${escapeCell(profile.skipped)}`, ''];
  const link = (file) => (linkFrom ? relative(linkFrom, file) : file);
  const files = (profile.files ?? []).map((file, index) => {
    const page = profile.flameGraphs?.[index];
    return `- [${escapeCell(link(file))}](${encodeURI(link(file))})${page ? ` ([flame graph](${encodeURI(link(page))}))` : ''}`;
  });
  return [
    `CPU self time per request, base ${micros(profile.totals.base)} µs → head ${micros(profile.totals.head)} µs, from one more duet run of both sides with the V8 profiler on.`,
    '',
    '**Grew most**', '', ...HEADER, ...(profile.grew.length ? rows(profile.grew) : ['| (none) | | | | | |']),
    '',
    '**Shrank most**', '', ...HEADER, ...(profile.shrank.length ? rows(profile.shrank) : ['| (none) | | | | | |']),
    '',
    ...(files.length ? ['Profiles (open in Chrome DevTools or speedscope):', ...files, ''] : []),
  ];
}
