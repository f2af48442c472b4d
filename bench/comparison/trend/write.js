// Where a trend run leaves perfgate: its github-action-benchmark inputs (the relative benches,
// one file per direction), the comparison it measured (compare's comparison.json and .md), and
// trend.md: the ratios, the baseline, the chain of links and the time it took (for the job summary).
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { writeComparison } from '../write.js';
import { escapeMarkdown } from '../../core/text.js';
import { parseRange } from './ratios.js';

export const TREND_FILES = {
  bigger: 'benchmark-action-trend-bigger.json',
  smaller: 'benchmark-action-trend-smaller.json',
  summary: 'trend.md',
};

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const short = (anchor) => `${escapeMarkdown(anchor.ref)} (\`${anchor.sha.slice(0, 12)}\`)`;

function chainLines(state) {
  return state.anchors.map((anchor, index) =>
    index === 0
      ? `- ${short(anchor)}: the first baseline, pinned ${anchor.pinnedAt.slice(0, 10)}`
      : `- ${short(anchor)}: re-anchored ${anchor.pinnedAt.slice(0, 10)}, linked to ${escapeMarkdown(state.anchors[index - 1].ref)} on ${Object.keys(anchor.link.ratios).length} lines`,
  );
}

// The lines of a trend run (its chained benches) or of a re-anchor (the links' ratios), in %.
const linesOf = (run, benches) =>
  benches
    ? [...benches.bigger, ...benches.smaller].map((bench) => ({
        name: bench.name,
        value: bench.value,
        ci: parseRange(bench.range),
      }))
    : Object.entries(run.ratios ?? {}).map(([name, { ratio, ci }]) => ({
        name,
        value: 100 * ratio,
        ci: ci.map((each) => 100 * each),
      }));

// benches: null for a re-anchor, which adds no point to any line.
export function trendMarkdown(run, benches) {
  if (run.kind === 'skipped')
    return ['### perfgate relative trend', '', ...run.notices.map((notice) => `> ${escapeMarkdown(notice)}`), ''].join(
      '\n',
    );
  const rows = linesOf(run, benches).map(
    ({ name, value, ci }) =>
      `| ${escapeMarkdown(name)} | ${value.toFixed(2)} % | ${ci[0].toFixed(2)} … ${ci[1].toFixed(2)} % |`,
  );
  const measured = run.comparison?.benchmarks ?? [];
  const rounds = measured.reduce((sum, each) => sum + (each.rounds ?? 0), 0);
  const title =
    run.kind === 'reanchor'
      ? `### perfgate re-anchor: ${short(run.head)} measured against ${short(run.baseline)}`
      : `### perfgate relative trend: ${short(run.head)} against the baseline ${short(run.baseline)}`;
  return [
    title,
    '',
    ...run.notices.map((notice) => `> ${escapeMarkdown(notice)}`),
    ...(run.notices.length ? [''] : []),
    ...(rows.length
      ? [
          run.kind === 'reanchor'
            ? 'Each line: the new baseline as a percentage of the old one (the link that chains the trend across them).'
            : "Each line: this commit as a percentage of the first baseline, chained over the re-anchor links (100 % = the baseline's level; the interval includes every link's).",
          '',
          '| trend line | vs baseline | 95 % CI |',
          '| --- | ---: | ---: |',
          ...rows,
          '',
        ]
      : []),
    `Time: ${seconds(run.elapsedMs)} for ${measured.length} benchmark(s) in duet, ${rounds} rounds in all (${measured.map((each) => `${escapeMarkdown(each.id)} ${seconds(each.elapsedMs ?? 0)}`).join(', ') || 'none measured'}).`,
    '',
    '**Baselines**',
    ...chainLines(run.state),
    '',
  ].join('\n');
}

// benches: trendBenches' files (ratios.js), null for a re-anchor. Returns the markdown summary.
export function writeTrend(run, benches, outDir) {
  if (run.comparison) writeComparison(run.comparison, outDir);
  for (const kind of benches ? ['bigger', 'smaller'] : [])
    writeFileAtomicSync(join(outDir, TREND_FILES[kind]), `${JSON.stringify(benches[kind], null, 2)}\n`);
  const markdown = trendMarkdown(run, benches);
  writeFileAtomicSync(join(outDir, TREND_FILES.summary), markdown);
  return markdown;
}
