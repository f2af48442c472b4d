// What a trend point's tooltip says, as the action's page does and more: the run's date,
// the commit (id, message, author and committer), the value with its range, the change
// from the previous run, the bench's extra text, and the change point it starts, if any.
import { formatChange, formatDate, formatValue } from './format.js';

const who = (person) => (person.username ? `@${person.username}` : person.name);

function people(commit) {
  const author = who(commit.author);
  const committer = who(commit.committer);
  if (!author && !committer) return '';
  if (!committer || committer === author) return `by ${author}`;
  return author ? `by ${author}, committed by ${committer}` : `committed by ${committer}`;
}

export function describeChangePoint(changePoint, unit) {
  const { before, after, change, pValue } = changePoint;
  const significance = !Number.isFinite(pValue) ? '' : pValue < 0.001 ? ', p < 0.001' : `, p = ${pValue.toFixed(3)}`;
  return `change point: mean ${formatValue(before.mean, unit)} (${before.n} runs) → ${formatValue(after.mean, unit)} (${after.n} runs), ${formatChange(change)}${significance}`;
}

// raw: a drawn point ({ x, y, point, changePoint? }); label: its series' label.
export function pointDetails(raw, { label, unit, commits }) {
  const { sample } = raw.point;
  const commit = commits[sample.commit];
  const committed = commit.timestamp && formatDate(commit.timestamp);
  return {
    title: `${commit.short} · run ${formatDate(sample.date)} UTC`,
    message: commit.message,
    people: [people(commit), committed ? `committed ${committed} UTC` : ''].filter(Boolean).join(' · '),
    value: `${label}: ${formatValue(sample.value, unit)}${sample.range ? ` (${sample.range})` : ''}`,
    change: raw.point.change !== null ? `${formatChange(raw.point.change)} vs the previous run` : '',
    mark: raw.point.regression ? '▲ worse than the previous run by more than the alert threshold' : '',
    changePoint: raw.changePoint ? describeChangePoint(raw.changePoint, unit) : '',
    extra: sample.extra,
    link: commit.url ? 'click (on a phone: tap again) to open the commit' : '',
  };
}
