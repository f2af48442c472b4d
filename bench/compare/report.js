// The comparison's markdown report: one table of verdicts, then collapsed details with
// the per-round samples, the machine and the warnings. Used for the terminal, the job
// summary and the sticky PR comment, so every text from outside is escaped.
import { DEFAULT_ENGINE } from '../engines/index.js';
import { intervalText, measured as number, percent, signedPercent } from '../format.js';
import { JUDGED_METRICS, sampleValue } from '../metrics.js';
import { describePinning } from '../pinning.js';
import { profileMarkdown } from '../profile/report.js';
import { VERDICTS } from '../stats/index.js';
import { escapeMarkdown as escapeCell, oneLine } from '../text.js';

const VERDICT_SYMBOLS = {
  [VERDICTS.regression]: '🔴',
  [VERDICTS.improvement]: '🟢',
  [VERDICTS.noChange]: '⚪',
  [VERDICTS.inconclusive]: '🟡',
};

const meanOf = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

// What "change" and its interval are, per settings.interval (bench/stats/METHOD.md); older files were Welch.
const CHANGE_METHODS = {
  paired: 'change = median of the per-round head/base ratios (Hodges–Lehmann), with its signed-rank 95 % interval',
  welch: 'change = ratio of the means, with a Welch (delta-method) 95 % interval',
  bootstrap: 'change = ratio of the means, with a percentile-bootstrap 95 % interval',
};

// The judged metrics a benchmark has verdicts for: a comparison written before a metric
// existed has none for it.
const judgedIn = (benchmark) => JUDGED_METRICS.filter((metric) => benchmark.verdicts[metric.name]);

// The verdict bands the comparison ran with (settings.thresholds: fractions per metric name),
// metrics that share a band named together; a file from before a metric was judged lacks it.
function bandSentence(thresholds) {
  const groups = new Map();
  for (const { name } of JUDGED_METRICS.filter((metric) => thresholds[metric.name])) {
    const { threshold, minimumEffect } = thresholds[name];
    const band =
      threshold === minimumEffect
        ? `±${percent(threshold)}`
        : `no change within ±${percent(threshold)}, a change beyond ±${percent(minimumEffect)}`;
    groups.set(band, [...(groups.get(band) ?? []), name]);
  }
  const bands = [...groups].map(([band, names]) => `${names.join(' and ')}: ${band}`).join('; ');
  return (
    'Verdicts from that interval: no change when it lies wholly inside the band, regression or improvement ' +
    `when wholly beyond the minimum effect, inconclusive when the time budget ran out first (${bands}).`
  );
}

// The cells after the benchmark's name, per metric, from numbers and verdicts only: shared
// by this report and the PR comment, which each quote the name their own way.
export function verdictCells(benchmark) {
  return judgedIn(benchmark).map((metric) => {
    const { name, unit } = metric;
    const verdict = benchmark.verdicts[name];
    const [base, head] = ['base', 'head'].map((side) =>
      meanOf(benchmark.samples[side].map((sample) => sampleValue(metric, sample))),
    );
    const change = verdict.change ?? (head - base) / (base || 1);
    return `${name} | ${number(base)} ${unit} | ${number(head)} ${unit} | ${signedPercent(change)} | ${intervalText(verdict.ci)} | ${VERDICT_SYMBOLS[verdict.verdict]} ${verdict.verdict}`;
  });
}

function verdictRows(benchmark) {
  if (benchmark.status !== 'ok') {
    return [
      `| ${escapeCell(benchmark.id)} | | | | | | ${benchmark.status}: ${escapeCell(oneLine(benchmark.reason))} |`,
    ];
  }
  return verdictCells(benchmark).map((cells) => `| ${escapeCell(benchmark.id)} | ${cells} |`);
}

const cellOf = (value) => (typeof value === 'number' ? number(value) : 'n/a');

function samplesTable(benchmark) {
  const metrics = judgedIn(benchmark);
  const rows = benchmark.samples.base.map((base, index) => {
    const head = benchmark.samples.head[index];
    const cells = metrics.map((metric) =>
      [base, head].map((sample) => cellOf(sampleValue(metric, sample))).join(' | '),
    );
    return `| ${index + 1} | ${cells.join(' | ')} |`;
  });
  return [
    `**${escapeCell(benchmark.id)}** — ${benchmark.rounds} rounds (${benchmark.mode ?? 'sequential'}) in ${Math.round(benchmark.elapsedMs / 1000)} s, stopped: ${benchmark.stoppedBy}`,
    '',
    `| round | ${metrics.map(({ name, unit }) => `base ${name} (${unit}) | head ${name} (${unit})`).join(' | ')} |`,
    `| ---: | ${metrics.map(() => '---: | ---:').join(' | ')} |`,
    ...rows,
    '',
  ];
}

// The benchmark's own verdict line: which metric called it, and why (bench/compare/rounds.js).
function verdictLine(benchmark) {
  if (!benchmark.verdict) return [];
  const { verdict, calledBy, notes } = benchmark.verdict;
  return [
    `- **${escapeCell(benchmark.id)}**: ${VERDICT_SYMBOLS[verdict]} ${verdict}, called by ${escapeCell(calledBy)}${notes.length ? ` (${notes.map(escapeCell).join('; ')})` : ''}`,
  ];
}

// The differential profiles, one collapsed section per profiled benchmark.
function profileSections(comparison, linkFrom) {
  return comparison.benchmarks
    .filter((benchmark) => benchmark.profile)
    .flatMap((benchmark) => [
      `<details><summary>Where the CPU time went: ${escapeCell(benchmark.id)}</summary>`,
      '',
      ...profileMarkdown(benchmark.profile, { linkFrom }),
      '</details>',
      '',
    ]);
}

// linkFrom: the folder the report is written to, so links to kept profiles are relative.
export function comparisonMarkdown(comparison, { linkFrom } = {}) {
  const { sides, settings, machine } = comparison;
  const measured = comparison.benchmarks.filter((benchmark) => benchmark.status === 'ok');
  const warnings = comparison.benchmarks.flatMap((benchmark) =>
    (benchmark.warnings ?? []).map((warning) => `- ${escapeCell(benchmark.id)}: ${escapeCell(warning)}`),
  );
  const gate = comparison.gate.failed
    ? `**Regression beyond ${percent(comparison.gate.failThreshold)}** in ${comparison.gate.regressions.map(escapeCell).join(', ')}: the check fails.`
    : `No regression beyond ${percent(comparison.gate.failThreshold)} in the metric that called each verdict.`;
  // The references run the same code on both sides (perfgate.config's "reference").
  const moved = comparison.gate.referencesMoved ?? [];
  const noise = moved.length
    ? `\n\n⚠️ The reference ${moved.map(escapeCell).join(', ')} moved although its code is the same on both sides: the machine was not steady, so read the other verdicts with care.`
    : '';
  return [
    `### perfgate: ${escapeCell(sides.head.description)} vs ${escapeCell(sides.base.description)}`,
    '',
    `${gate}${noise}`,
    '',
    '| benchmark | metric | base | head | change | 95 % CI | verdict |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...comparison.benchmarks.flatMap(verdictRows),
    '',
    ...measured.flatMap(verdictLine),
    '',
    `${CHANGE_METHODS[settings.interval ?? 'welch']}. ${bandSentence(settings.thresholds)}`,
    ...(warnings.length ? ['', '**Warnings**', ...warnings] : []),
    '',
    '<details><summary>Per-round samples</summary>',
    '',
    ...measured.flatMap(samplesTable),
    '</details>',
    '',
    ...profileSections(comparison, linkFrom),
    '<details><summary>Machine and settings</summary>',
    '',
    `- ${escapeCell(machine.cpuModel)} x${machine.cores}, Node ${machine.node}, kernel ${escapeCell(machine.kernel)}`,
    `- pinning: ${escapeCell(describePinning(comparison.pinning))}`,
    `- ${settings.mode === 'sequential' ? 'sequential: the sides one after the other' : 'duet: both sides at the same time on the same cores'}, load engine ${escapeCell(settings.engine ?? DEFAULT_ENGINE)}`,
    `- rounds of ${settings.roundSeconds} s after ${settings.warmupSeconds} s warm-up, fresh server each, order alternating; ` +
      `${settings.minRounds}–${settings.maxRounds} rounds, budget ${settings.budgetSeconds} s per benchmark`,
    '</details>',
    '',
  ].join('\n');
}
