// The sticky pull-request comment: rendered here from the validated numbers and verdicts of
// the artifact (never its markdown), then created once and updated in place, found again by
// a hidden marker in a comment of the workflow's own bot user.
import {
  confirmationLine,
  dependencyChangeLines,
  misbehaviourLines,
  PROFILE_SECTIONS,
  smallRegressionLine,
  verdictCells,
} from '../comparison/report.js';
import { headlineLines } from '../comparison/headline.js';
import { profileTables } from '../comparison/profile/report.js';
import { percent } from '../core/format.js';
import { codeSpan as code, oneLine } from '../core/text.js';

export const MARKER = '<!-- perfgate-bench -->';
const BOT_LOGIN = 'github-actions[bot]';
const MAX_ROWS = 150;
// GitHub refuses comments over 65 536 characters.
const MAX_BODY = 60_000;

function rows(benchmark) {
  if (benchmark.status !== 'ok')
    return [`| ${code(benchmark.id)} | | | | | | ${benchmark.status}: ${code(oneLine(benchmark.reason))} |`];
  return verdictCells(benchmark).map((cells) => `| ${code(benchmark.id)} | ${cells} |`);
}

// Where the CPU time went and which functions allocate, collapsed: the profile files themselves are
// in the run's artifacts.
function profiles(comparison) {
  return comparison.benchmarks.flatMap((benchmark) =>
    PROFILE_SECTIONS.filter(({ field }) => benchmark[field]).flatMap(({ field, kind, title }) => [
      `<details><summary>${title}: ${code(benchmark.id)}</summary>`,
      '',
      ...profileTables(benchmark[field], (value) => code(value), kind),
      '</details>',
      '',
    ]),
  );
}

// How the rounds ran, per comparison.json's mode (a benchmark falls back to sequential where
// duet cannot run, bench/comparison/run-comparison.js); an unknown mode from the artifact says nothing.
const MODE_TEXT = {
  duet: 'duet rounds (base and head at the same time on the same cores)',
  sequential: 'sequential rounds (base and head one after the other, alternating which goes first)',
};

function roundsText(comparisons) {
  const modes = new Set(
    comparisons.flatMap(({ comparison }) =>
      comparison.benchmarks
        .filter((benchmark) => benchmark.status === 'ok')
        .map((benchmark) => benchmark.mode ?? comparison.settings?.mode ?? 'sequential'),
    ),
  );
  const known = Object.keys(MODE_TEXT).filter((mode) => modes.has(mode));
  return known.length ? known.map((mode) => MODE_TEXT[mode]).join(' and ') : 'rounds';
}

// The benchmarks the machine's noise left inconclusive (a shared or hosted runner): said, not guessed.
function noisyLines(comparison) {
  const noisy = comparison.benchmarks.filter((benchmark) => benchmark.verdict?.noisy);
  if (!noisy.length) return [];
  const each = noisy.map(
    ({ id, verdict }) =>
      `${code(id)} (spread ${percent(verdict.noisy.spread)} per round in ${code(verdict.noisy.metric)})`,
  );
  return [`⚠️ Inconclusive: the machine was too noisy for ${each.join(', ')}.`, ''];
}

function section(comparison) {
  const { sides } = comparison;
  const all = comparison.benchmarks.flatMap(rows);
  const shown = all.slice(0, MAX_ROWS);
  return [
    `### ${code(sides.head.description)} vs ${code(sides.base.description)}`,
    '',
    ...headlineLines(comparison, code),
    '',
    ...misbehaviourLines(sides, (text) => code(text, 600)),
    ...dependencyChangeLines(comparison.dependencyChanges, (text) => code(text)),
    ...smallRegressionLine(comparison, (id) => code(id)),
    ...confirmationLine(comparison),
    ...noisyLines(comparison),
    '| benchmark | metric | base | head | change | 95 % CI | verdict |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...shown,
    ...(all.length > shown.length ? ['', `${all.length - shown.length} more rows: see the run's job summary.`] : []),
    '',
    ...profiles(comparison),
  ];
}

/**
 * @param {{pr: object, comparisons: {comparison: object}[]}} artifact  validated (artifact.js)
 * @param {{runUrl: string, workflow: string, currentHeadSha?: string}} run  from the event
 */
export function renderComment({ pr, comparisons }, { runUrl, workflow, currentHeadSha }) {
  const measured = pr.headSha.slice(0, 12);
  const moved =
    currentHeadSha && currentHeadSha !== pr.headSha
      ? ` The pull request has moved on to \`${currentHeadSha.slice(0, 12)}\` since.`
      : '';
  const lines = [
    MARKER,
    '## perfgate benchmark',
    '',
    `Commit \`${measured}\`, measured by ${code(workflow, 60)} in [this run](${runUrl}).${moved}`,
    '',
    ...(comparisons.length
      ? comparisons.flatMap(({ comparison }) => section(comparison))
      : ['⚠️ The run produced no comparison: see its log.', '']),
    `<sub>Verdicts from ${roundsText(comparisons)}; per-round samples are in the run's job summary and artifact.</sub>`,
  ];
  const body = lines.join('\n');
  return body.length <= MAX_BODY
    ? body
    : `${MARKER}\n## perfgate benchmark\n\nThe report is too long for a comment: see [the run](${runUrl}).`;
}

// Updates this bot's marked comment if the pull request has one (on any page), else creates it.
export async function upsertComment({ api, repository, number, body, author = BOT_LOGIN }) {
  const comments = api.paginate(`/repos/${repository}/issues/${number}/comments?per_page=100`);
  for await (const comment of comments) {
    if (comment?.user?.login === author && Number.isInteger(comment.id) && String(comment.body).startsWith(MARKER)) {
      await api.request('PATCH', `/repos/${repository}/issues/comments/${comment.id}`, { body });
      return { action: 'updated', id: comment.id };
    }
  }
  const created = await api.request('POST', `/repos/${repository}/issues/${number}/comments`, { body });
  return { action: 'created', id: created?.id };
}

// A comment on one commit (bench-main's change points land on the commit that brought them).
export async function commentOnCommit({ api, repository, sha, body }) {
  const created = await api.request('POST', `/repos/${repository}/commits/${sha}/comments`, {
    body: body.length <= MAX_BODY ? body : `${body.slice(0, MAX_BODY)}\n\n(cut: see the run's job summary)`,
  });
  return created?.id;
}
