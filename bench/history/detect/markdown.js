// Change points as markdown, for the terminal, the job summary and commit comments. Names come
// from the data file, so they are shown as code spans.
import { signedPercent } from '../../core/format.js';
import { codeSpan as code } from '../../core/text.js';

const KIND_LABELS = { regression: '🔴 regression', improvement: '🟢 improvement', change: '🔵 change' };

const number = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString());
export const formatChange = (change) => (change === null ? 'from 0' : signedPercent(change));
const formatPValue = (p) => (p === 0 ? '< 1e-300' : p < 0.001 ? p.toExponential(1) : p.toFixed(4));

function commitCell({ commit, previousCommit }) {
  const short = code(commit.id.slice(0, 12));
  const link = /^https?:\/\//.test(commit.url) ? `[${short}](${commit.url})` : short;
  return previousCommit.id === commit.id
    ? `${link} (same commit as the run before)`
    : `${link} (run before: ${code(previousCommit.id.slice(0, 12))})`;
}

const side = ({ mean, n }, unit) => `${number(mean)} ${code(unit, 20)} (${n} runs)`;

function changePointRows(points) {
  return [
    '| | suite | benchmark | first run after the step | mean before | mean after | change | p |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...points.map(
      (point) =>
        `| ${KIND_LABELS[point.kind]} | ${code(point.suite, 60)} | ${code(point.bench)} | ${commitCell(point)} | ${side(point.before, point.unit)} | ${side(point.after, point.unit)} | ${formatChange(point.change)} | ${formatPValue(point.pValue)} |`,
    ),
  ];
}

// title, then either the table or a line saying there is nothing.
export function renderChangePoints(points, { title, method, empty }) {
  return [`### ${title}`, '', method, '', ...(points.length ? changePointRows(points) : [empty]), ''].join('\n');
}

export function describeMethod({ maxPValue, windowLength, minMagnitude }) {
  return `E-Divisive means with a Student's t test between neighbouring segments (Hunter / Apache Otava), p < ${maxPValue}, window ${windowLength}${minMagnitude ? `, changes over ${100 * minMagnitude} %` : ''}.`;
}
