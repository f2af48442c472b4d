// The differential profiles as markdown: the functions whose CPU cost (or allocation) per
// request grew most, then those that shrank most. The tables come from numbers and a `quote`
// for text cells, so the report (escaped names, links to the kept profiles) and the PR comment
// (code spans for an untrusted artifact) share them.
import { relative } from 'node:path';
import { isRuntimePackage } from './cpuprofile.js';
import { byCertainGrowth } from './differential.js';
import { escapeMarkdown as escapeCell } from '../../core/text.js';

// An amount per request (µs or bytes), with as many decimals as its size needs.
const amount = (value) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(1) : value.toFixed(2);
const signedAmount = (value) => `${value >= 0 ? '+' : '−'}${amount(Math.abs(value))}`;
const withUncertainty = (row) =>
  row.uncertainty === undefined ? signedAmount(row.change) : `${signedAmount(row.change)} ± ${amount(row.uncertainty)}`;

// What each kind of profile measures, in its tables' words.
const KINDS = {
  cpu: {
    unit: 'µs',
    intro: (totals) =>
      `Self time per request, base ${amount(totals.base)} µs → head ${amount(totals.head)} µs, from one more run of both sides at the same time with the V8 profiler on. The profiler samples wall time, so on a busy machine these exceed the CPU µs/request above: read them as shares, and a function at 0 on the base side as new. ± is the sampling uncertainty (about 95 %).`,
    byPackage:
      "**By package** (each sample charged to the package whose code is nearest on its stack: Node's own and native time count for the package that called it; V8 records the garbage collector with no caller, so it stays a row of its own)",
  },
  allocation: {
    unit: 'B',
    intro: (totals) =>
      `Bytes allocated per request on the V8 heap, base ${amount(totals.base)} B → head ${amount(totals.head)} B, from one more run of both sides with V8's sampling heap profiler on (objects a GC collected included), charged to the function that allocated them. Sampled, so a function at 0 on the base side is new or below the sampling's reach. ± is the sampling uncertainty (about 95 %).`,
    byPackage:
      "**By package** (each allocation charged to the package whose code is nearest on its stack: Node's own and native code count for the package that called it)",
  },
};

// Beyond its sampling noise: a change its uncertainty does not reach back to zero from.
const certain = (row) => Math.abs(row.change) > (row.uncertainty ?? 0);

const functionHeader = (unit) => [
  `| function | where | package | base ${unit}/req | head ${unit}/req | change |`,
  '| --- | --- | --- | ---: | ---: | ---: |',
];
const packageHeader = (unit) => [
  `| package | base ${unit}/req | head ${unit}/req | change |`,
  '| --- | ---: | ---: | ---: |',
];

function table(header, list, cells) {
  const empty = `| (none) |${' |'.repeat(header[1].split('|').length - 3)}`;
  return [...header, ...(list.length ? list.map((row) => `| ${cells(row).join(' | ')} |`) : [empty])];
}

const functionCells = (quote) => (row) => [
  quote(row.functionName),
  quote(row.path ? `${row.path}:${row.line}` : '(native)'),
  quote(row.package),
  amount(row.base),
  amount(row.head),
  withUncertainty(row),
];

const packageCells = (quote) => (row) => [
  quote(row.package),
  amount(row.base),
  amount(row.head),
  `${withUncertainty(row)}${certain(row) ? '' : ' (noise)'}`,
];

// The profile's first line: the package that grew most beyond its noise, in the reader's words.
function packageHeadline(packages, quote, unit) {
  const grownBeyondNoise = packages.filter((row) => row.change > 0 && certain(row));
  const grown = grownBeyondNoise.filter((row) => !isRuntimePackage(row.package)).sort(byCertainGrowth)[0];
  const runtime = grownBeyondNoise.filter((row) => isRuntimePackage(row.package));
  // The runtime's own rows are what no package's code was on the stack for: the response's writing,
  // the socket, the collector. What a package makes the runtime do later lands there too.
  const alsoRuntime = runtime.length
    ? ` Also grew, with no package's code on the stack: ${runtime.map((row) => `${quote(row.package)} ${signedAmount(row.change)} ± ${amount(row.uncertainty ?? 0)}`).join(', ')}; what a package leaves the runtime to do later (headers written, objects collected) is counted there.`
    : '';
  if (!grown) return `No package of your code grew beyond the profile's sampling noise.${alsoRuntime}`;
  return `Grew most: ${quote(grown.package)}: ${signedAmount(grown.change)} ${unit}/request, ${amount(grown.base)} → ${amount(grown.head)}.${alsoRuntime}`;
}

/**
 * @param {object} profile  a benchmark's `profile` or `allocationProfile`: { packages, grew, shrank, totals } or { skipped }
 * @param {string} kind  'cpu' or 'allocation'
 */
export function profileTables(profile, quote, kind = 'cpu') {
  if (profile.skipped) return [`Profile not taken: ${quote(profile.skipped)}`, ''];
  const { unit, intro, byPackage } = KINDS[kind];
  return [
    intro(profile.totals),
    '',
    ...(profile.packages
      ? [
          packageHeadline(profile.packages, quote, unit),
          '',
          byPackage,
          '',
          ...table(packageHeader(unit), profile.packages, packageCells(quote)),
          '',
        ]
      : []),
    '**Grew most**',
    '',
    ...table(functionHeader(unit), profile.grew, functionCells(quote)),
    '',
    '**Shrank most**',
    '',
    ...table(functionHeader(unit), profile.shrank, functionCells(quote)),
    '',
  ];
}

// For comparison.md and bisect.md: the tables and links to the kept profiles and flame graphs,
// relative to `linkFrom`, the folder the report is written to.
export function profileMarkdown(profile, { linkFrom, kind = 'cpu' } = {}) {
  const link = (file) => (linkFrom ? relative(linkFrom, file) : file);
  const files = (profile.files ?? []).map((file, index) => {
    const page = profile.flameGraphs?.[index];
    return `- [${escapeCell(link(file))}](${encodeURI(link(file))})${page ? ` ([flame graph](${encodeURI(link(page))}))` : ''}`;
  });
  return [
    ...profileTables(profile, escapeCell, kind),
    ...(files.length
      ? [
          kind === 'cpu'
            ? 'Profiles (open in Chrome DevTools or speedscope):'
            : "Profiles (load in Chrome DevTools' Memory panel):",
          ...files,
          '',
        ]
      : []),
  ];
}
