// The comparison's markdown report: one table of verdicts, then collapsed details with
// the per-round samples, the machine and the warnings. Used for the terminal, the job
// summary and the sticky PR comment, so every text from outside is escaped.
import { DEFAULT_ENGINE } from '../measurement/engines/seam.js';
import { intervalText, levelSuffix, levelText, measured as number, percent, signedPercent } from '../core/format.js';
import { DECIDING_METRICS, JUDGED_METRICS, metricByName, sampleValue } from '../results/metrics.js';
import { describePinning } from '../measurement/pinning.js';
import { profileMarkdown } from './profile/report.js';
import { COMPARE_DEFAULTS, DEFAULTS, isSmallChange, shownInterval, VERDICTS } from '../stats/index.js';
import { escapeMarkdown as escapeCell, oneLine } from '../core/text.js';
import { aloneLines } from './alone.js';
import { CONFIRMING_RUN, changeDirection } from './confirm.js';
import { NO_CHANGE_MARGINS } from './rounds.js';
import { headlineLines, SMALL_CHANGE_NOTE } from './headline.js';

export const VERDICT_SYMBOLS = {
  [VERDICTS.regression]: '🔴',
  [VERDICTS.smallRegression]: '🟠',
  [VERDICTS.improvement]: '🟢',
  [VERDICTS.smallImprovement]: '🔵',
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

// "a", "a and b", "a, b and c".
const inWords = (names) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join(''));

// The verdict bands the comparison ran with (settings.thresholds: fractions per metric name),
// metrics that share a band named together; a file from before a metric was judged lacks it.
function bandSentence(thresholds) {
  const groups = new Map();
  for (const { name } of JUDGED_METRICS.filter((metric) => thresholds[metric.name])) {
    const { threshold, minimumEffect } = thresholds[name];
    const margin = NO_CHANGE_MARGINS.band(thresholds[name]);
    const edges =
      threshold === minimumEffect
        ? `band and minimum effect ±${percent(threshold)}`
        : `band ±${percent(threshold)}, minimum effect ±${percent(minimumEffect)}`;
    const band = margin === threshold ? edges : `${edges}, no change within ±${percent(margin)}`;
    groups.set(band, [...(groups.get(band) ?? []), name]);
  }
  const bands = [...groups].map(([band, names]) => `${inWords(names)}: ${band}`).join('; ');
  // Inconclusive means "the budget ran out" only for a metric that decides; another one is
  // judged on the rounds the deciding metrics took (p99 latency).
  const listed = (metrics) => metrics.filter((metric) => thresholds[metric.name]).map((metric) => metric.name);
  const deciding = listed(DECIDING_METRICS);
  const others = listed(JUDGED_METRICS.filter((metric) => !DECIDING_METRICS.includes(metric)));
  return (
    'Verdicts from that interval: regression or improvement when it lies wholly beyond the minimum effect; ' +
    `small regression or small improvement when it lies wholly on one side of zero, inside the band (${SMALL_CHANGE_NOTE}); ` +
    `no change when it contains zero, the estimate lies inside the minimum effect and the ${levelText(COMPARE_DEFAULTS.equivalenceConfidence)} interval ` +
    `(an equivalence test; shown instead when the rounds are too few for a ${levelText(DEFAULTS.confidence)} one) lies wholly inside the no-change margin (below; unless set, ${percent(COMPARE_DEFAULTS.noChangeShare)} of the band, at least the minimum effect), ` +
    `or, in a run that confirms a change, the ${levelText(CONFIRMING_RUN.equivalenceConfidence)} interval inside the minimum effect; ` +
    `inconclusive otherwise: for ${inWords(deciding)}, which decide, the time budget ran out first` +
    (others.length
      ? `; for ${others.join(' and ')}, which ${others.length > 1 ? 'do' : 'does'} not decide, its interval was still open when the deciding metrics stopped the sampling`
      : '') +
    ` (${bands}).`
  );
}

// The bands of the metrics some benchmark was judged on (heap bytes/request only where the runtime
// agent ran: --runtime-metrics), or all of them when none was.
function bandsJudged({ benchmarks, settings }) {
  const judged = JUDGED_METRICS.filter((metric) => benchmarks.some((benchmark) => benchmark.verdicts?.[metric.name]));
  if (!judged.length) return settings.thresholds;
  return Object.fromEntries(
    judged.filter((metric) => settings.thresholds[metric.name]).map(({ name }) => [name, settings.thresholds[name]]),
  );
}

// A metric verdict's interval as shown (bench/stats/verdict.js's shownInterval), with its level when not the usual.
// A "no change" rests on its equivalence interval, which is named beside the 95 % one when that one
// reaches past the margin the verdict ran with (it contains zero, so it called no change; its width is not
// the claim); a file from before the margin was recorded ran with the band.
function shownIntervalText(verdict) {
  const shown = shownInterval(verdict);
  const text = `${intervalText(shown?.interval)}${levelSuffix(shown?.level, DEFAULTS.confidence)}`;
  const { equivalenceCi, equivalenceConfidence, threshold, equivalenceMargin = threshold } = verdict;
  const pastMargin =
    shown?.interval !== equivalenceCi && shown?.interval.some((edge) => Math.abs(edge) >= equivalenceMargin);
  return verdict.verdict === VERDICTS.noChange && equivalenceCi && pastMargin
    ? `${text}; ${intervalText(equivalenceCi)}${levelSuffix(equivalenceConfidence, DEFAULTS.confidence)}`
    : text;
}

// The cells after the benchmark's name, per metric, from numbers and verdicts only: shared
// by this report and the PR comment, which each quote the name their own way.
export function verdictCells(benchmark) {
  return judgedIn(benchmark).map((metric) => {
    const { name, unit } = metric;
    const verdict = benchmark.verdicts[name];
    // A metric some rounds did not measure (p99.9 below its sample count) has its mean over the
    // rounds that did, and no change: its verdict says why.
    const [base, head] = ['base', 'head'].map((side) => {
      const values = benchmark.samples[side].map((sample) => sampleValue(metric, sample));
      const measured = values.filter((value) => typeof value === 'number');
      return measured.length ? meanOf(measured) : null;
    });
    const cell = (value) => (value === null ? 'n/a' : `${number(value)} ${unit}`);
    const change = verdict.change ?? (base === null || head === null ? null : (head - base) / (base || 1));
    const interval = verdict.ci === null && verdict.reason ? verdict.reason : shownIntervalText(verdict);
    return `${name} | ${cell(base)} | ${cell(head)} | ${change === null ? 'n/a' : signedPercent(change)} | ${interval} | ${VERDICT_SYMBOLS[verdict.verdict]} ${verdict.verdict}`;
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

// One run's rounds; a confirmed benchmark shows the run that decides, then the first run.
function samplesTable(benchmark) {
  const first = benchmark.confirmation?.first;
  return [
    ...runTable(benchmark, `**${escapeCell(benchmark.id)}**${first ? ' (the second run, which decides)' : ''}`),
    ...(first ? runTable({ ...first, mode: benchmark.mode }, `**${escapeCell(benchmark.id)}** (the first run)`) : []),
  ];
}

function runTable(run, title) {
  const metrics = judgedIn(run);
  const rows = run.samples.base.map((base, index) => {
    const head = run.samples.head[index];
    const cells = metrics.map((metric) =>
      [base, head].map((sample) => cellOf(sampleValue(metric, sample))).join(' | '),
    );
    return `| ${index + 1} | ${cells.join(' | ')} |`;
  });
  return [
    `${title} — ${run.rounds} rounds (${run.mode ?? 'sequential'}) in ${Math.round(run.elapsedMs / 1000)} s, stopped: ${run.stoppedBy}`,
    '',
    `| round | ${metrics.map(({ name, unit }) => `base ${name} (${unit}) | head ${name} (${unit})`).join(' | ')} |`,
    `| ---: | ${metrics.map(() => '---: | ---:').join(' | ')} |`,
    ...rows,
    '',
  ];
}

// The benchmark's verdict and the change of the metric that called it, e.g. "🟠 small regression,
// called by CPU µs/request: +3.3 % (+1.9 % … +4.5 %), smaller than the gate, but certain".
export function verdictSummary(benchmark) {
  const { verdict, calledBy } = benchmark.verdict;
  const called = calledChange(benchmark);
  const change = called ? `: ${signedPercent(called.change)} (${shownIntervalText(called)})` : '';
  return `${VERDICT_SYMBOLS[verdict]} ${verdict}, called by ${calledBy}${change}${isSmallChange(verdict) ? `, ${SMALL_CHANGE_NOTE}` : ''}`;
}

// The verdict of the metric that called the benchmark's verdict, when it has an interval to show.
function calledChange({ verdict, verdicts }) {
  const called = verdicts && Object.hasOwn(verdicts, verdict.calledBy) ? verdicts[verdict.calledBy] : undefined;
  return shownInterval(called) && Number.isFinite(called.change) ? called : undefined;
}

// The benchmarks whose verdict is a small but certain slowdown: they pass the gate, and are listed so
// that a trend of them is seen (ten PRs of +3 % each are a third).
export const smallRegressions = (comparison) =>
  comparison.benchmarks.filter(
    (benchmark) => benchmark.status === 'ok' && benchmark.verdict?.verdict === VERDICTS.smallRegression,
  );

// The line under the gate that counts them, with each one's called change; none when there are none.
// quote: how names from the comparison are shown (escaped here, code spans in the PR comment).
export function smallRegressionLine(comparison, quote) {
  const small = smallRegressions(comparison);
  if (!small.length) return [];
  const each = small.map((benchmark) => {
    const called = calledChange(benchmark);
    const change = called ? ` ${signedPercent(called.change)}, ${shownIntervalText(called)}` : '';
    // A metric's name is ours, shown as is; anything else from the file is quoted.
    const { calledBy } = benchmark.verdict;
    return `${quote(benchmark.id)} (${metricByName(calledBy) ? calledBy : quote(calledBy)}${change})`;
  });
  return [
    `🟠 ${small.length} small regression${small.length > 1 ? 's' : ''}, ${SMALL_CHANGE_NOTE}: ${each.join('; ')}.`,
    '',
  ];
}

// What a confirmation did (bench/comparison/confirm.js), in a benchmark's notes.
function confirmationNote({ confirmation }) {
  if (!confirmation) return [];
  const { verdict, rounds } = confirmation.first;
  const firstCall = `a first run called ${verdict.verdict} after ${rounds} rounds`;
  if (confirmation.opposite)
    return [`${firstCall}; this second run called the opposite, ${confirmation.opposite}, so neither stands`];
  const confirmed = changeDirection(verdict.verdict) === 'faster' ? 'confirmed an improvement' : 'confirmed a slowdown';
  return [`${firstCall}; this second run ${confirmation.repeated ? confirmed : 'did not repeat it'} and decides`];
}

// The benchmark's own verdict line: which metric called it, and why (bench/comparison/rounds.js).
function verdictLine(benchmark) {
  if (!benchmark.verdict) return [];
  // A built-in reference sits among the project's benchmarks under its own id: said, with its place in the check.
  const reference = benchmark.reference ? ['a reference beside your servers: it never fails the check'] : [];
  const notes = [...reference, ...benchmark.verdict.notes, ...confirmationNote(benchmark)];
  return [
    `- **${escapeCell(benchmark.id)}**: ${escapeCell(verdictSummary(benchmark))}${notes.length ? ` (${notes.map(escapeCell).join('; ')})` : ''}`,
  ];
}

// How many changes a first run called were measured again, and how many the second run confirmed.
export function confirmationLine(comparison) {
  const confirmed = comparison.benchmarks.filter((benchmark) => benchmark.status === 'ok' && benchmark.confirmation);
  if (!confirmed.length) return [];
  const repeated = confirmed.filter((benchmark) => benchmark.confirmation.repeated).length;
  return [
    `${confirmed.length} benchmark${confirmed.length > 1 ? 's' : ''} called slower or faster by a first run ${confirmed.length > 1 ? 'were' : 'was'} measured again, and the second run decides: ` +
      `${repeated} confirmed, ${confirmed.length - repeated} not repeated.`,
    '',
  ];
}

// The differential profiles, one collapsed section per profile of a benchmark.
export const PROFILE_SECTIONS = [
  { field: 'profile', kind: 'cpu', title: 'Where the CPU time went' },
  { field: 'allocationProfile', kind: 'allocation', title: 'Which functions allocate' },
];
function profileSections(comparison, linkFrom) {
  return comparison.benchmarks.flatMap((benchmark) =>
    PROFILE_SECTIONS.filter(({ field }) => benchmark[field]).flatMap(({ field, kind, title }) => [
      `<details><summary>${title}: ${escapeCell(benchmark.id)}</summary>`,
      '',
      ...profileMarkdown(benchmark[field], { linkFrom, kind }),
      '</details>',
      '',
    ]),
  );
}

// What a sandboxed side did that it should not have: the verdicts stand (the harness measured
// them), but the side is named. quote: how a text goes into a line (the PR comment quotes the
// artifact's as code).
export function misbehaviourLines(sides, quote = escapeCell) {
  const lines = ['base', 'head'].flatMap((key) =>
    (sides[key].sandbox?.misbehaviour ?? []).map((what) => `- the ${key} side ${quote(what)}`),
  );
  return lines.length
    ? [
        '⚠️ **The code under test misbehaved** (stopped by the sandbox; the verdicts are from what perfgate measured):',
        ...lines,
        '',
      ]
    : [];
}

const misbehaviour = (sides) => {
  const lines = misbehaviourLines(sides);
  return lines.length ? ['', ...lines.slice(0, -1)] : [];
};

const SHOWN_CHANGES = 30;

// What the sides' resolved lockfiles install differently (overrides, or two commits' lockfiles);
// cell: how a text goes into a table cell (the PR comment quotes the artifact's as code).
export function dependencyChangeLines(changes = [], cell = escapeCell) {
  if (!changes.length) return [];
  const more = changes.length > SHOWN_CHANGES ? [`- and ${changes.length - SHOWN_CHANGES} more`] : [];
  return [
    `<details><summary>Dependencies changed: ${changes.length} (base.package-lock.json vs head.package-lock.json)</summary>`,
    '',
    '| package | base | head | where in the tree |',
    '| --- | --- | --- | --- |',
    ...changes
      .slice(0, SHOWN_CHANGES)
      .map(
        (change) => `| ${[change.name, change.from, change.to, change.where].map((text) => cell(text)).join(' | ')} |`,
      ),
    ...more,
    '</details>',
    '',
  ];
}

// linkFrom: the folder the report is written to, so links to kept profiles are relative.
export function comparisonMarkdown(comparison, { linkFrom } = {}) {
  const { sides, settings, machine } = comparison;
  const measured = comparison.benchmarks.filter((benchmark) => benchmark.status === 'ok');
  const warnings = comparison.benchmarks.flatMap((benchmark) =>
    (benchmark.warnings ?? []).map((warning) => `- ${escapeCell(benchmark.id)}: ${escapeCell(warning)}`),
  );
  return [
    `### perfgate: ${escapeCell(sides.head.description)} vs ${escapeCell(sides.base.description)}`,
    '',
    ...headlineLines(comparison, escapeCell),
    ...misbehaviour(sides),
    '',
    ...dependencyChangeLines(comparison.dependencyChanges),
    ...smallRegressionLine(comparison, escapeCell),
    ...confirmationLine(comparison),
    '| benchmark | metric | base | head | change | 95 % CI | verdict |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...comparison.benchmarks.flatMap(verdictRows),
    '',
    ...measured.flatMap(verdictLine),
    '',
    ...aloneLines(comparison, { number, signedPercent, cell: escapeCell }),
    `${CHANGE_METHODS[settings.interval ?? 'welch']}. ${bandSentence(bandsJudged(comparison))}`,
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
    `- sandbox: ${['base', 'head'].map((key) => `${key} ${sides[key].sandbox?.sandboxed ? 'sandboxed (bubblewrap)' : 'not sandboxed'}`).join(', ')}`,
    // What each side could reach (bench/measurement/sandbox/side-networks.js).
    ...['base', 'head']
      .filter((key) => sides[key].sandbox?.network)
      .map((key) => `- the ${key}'s network: ${escapeCell(sides[key].sandbox.network)}`),
    ...[...new Set(['base', 'head'].map((key) => sides[key].sandbox?.limits).filter(Boolean))].map(
      (limits) => `- sandbox limits: ${escapeCell(limits)}`,
    ),
    `- ${settings.mode === 'sequential' ? 'sequential: the sides one after the other' : 'duet: both sides at the same time on the same cores'}, load engine ${escapeCell(settings.engine ?? DEFAULT_ENGINE)}`,
    `- rounds of ${settings.roundSeconds} s after ${settings.warmupSeconds} s warm-up, fresh server each, order alternating; ` +
      `${settings.minRounds}–${settings.maxRounds} rounds, budget ${settings.budgetSeconds} s per benchmark`,
    '</details>',
    '',
  ].join('\n');
}
