// bisect's markdown: the answer first (the first bad commit, or the smallest range it can
// defend, or that no step was found), then every step with its verdict and interval.
import { escapeMarkdown as escapeCell } from '../../core/text.js';
import { intervalText, signedPercent } from '../../core/format.js';
import { profileMarkdown } from '../profile/report.js';

const short = (sha) => sha.slice(0, 12);

function answer(bisect) {
  if (bisect.outcome === 'found')
    return `**First bad commit: ${short(bisect.firstBad.sha)}** ${escapeCell(bisect.firstBad.subject)} (parent ${short(bisect.firstBad.parent)})`;
  if (bisect.outcome === 'no step')
    return `**No step found**: ${short(bisect.range.bad)} is not measurably slower than ${short(bisect.range.good)}.`;
  const { good, bad } = bisect.unresolvedRange;
  return `**Not resolved**: a step was measured, and it lies after ${short(good)}, up to and including ${short(bad)}; a step inside stayed inconclusive after a retry with a larger budget (raise --budget, or use a quieter machine).`;
}

export function bisectMarkdown(bisect, { linkFrom } = {}) {
  const steps = bisect.steps.map((step, index) => {
    return `| ${index + 1} | ${short(step.candidate)} ${escapeCell(step.subject)} | ${short(step.good)} | ${step.attempt} | ${step.change === null ? 'n/a' : signedPercent(step.change)} | ${intervalText(step.ci)} | ${step.verdict} | ${step.rounds} | ${step.seconds} |`;
  });
  return [
    `### perfgate bisect: ${escapeCell(bisect.benchmark)}`,
    '',
    answer(bisect),
    '',
    `${bisect.range.commits} first-parent commits from ${short(bisect.range.good)} (good) to ${short(bisect.range.bad)} (bad), ${bisect.steps.length} steps in ${bisect.elapsedSeconds} s.`,
    '',
    '| step | candidate | against (good) | attempt | change | 95 % CI | verdict | rounds | s |',
    '| ---: | --- | --- | ---: | ---: | --- | --- | ---: | ---: |',
    ...steps,
    '',
    ...(bisect.profile ? ['#### Where the CPU time went', '', ...profileMarkdown(bisect.profile, { linkFrom })] : []),
  ].join('\n');
}
