// "Report once": the change points already reported, kept in a JSON file beside data.js on the
// pages branch (dev/bench/change-points.json), which `npm run detect --state` reads and writes.
// A change point's index can move by a run or two as runs arrive after it, so a point counts
// as reported when one of the same trend line and kind was reported at a commit within
// `tolerance` runs of it.
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { historyErrors } from '../../core/errors.js';
import { readInputJson } from '../../core/read-file.js';
import { seriesOf } from './series.js';

const FORMAT = 'perfgate-reported-change-points';
const VERSION = 1;
export const REPORT_TOLERANCE = 3;
// The oldest are dropped past this many, so the file stays small on a long-lived branch.
const MAX_KEPT = 2000;

const key = (suite, bench) => `${suite}\u0000${bench}`;

export function readState(path) {
  const state = readInputJson(path, (problem) => historyErrors.badState(path, `it ${problem}`), {
    missing: { format: FORMAT, version: VERSION, reported: [] },
  });
  const valid =
    state?.format === FORMAT &&
    state.version === VERSION &&
    Array.isArray(state.reported) &&
    state.reported.every(
      (item) =>
        typeof item?.suite === 'string' &&
        typeof item.bench === 'string' &&
        typeof item.commit === 'string' &&
        typeof item.kind === 'string',
    );
  if (!valid)
    throw historyErrors.badState(
      path,
      `it is not a ${FORMAT} version ${VERSION} file with a "reported" list of {suite, bench, commit, kind}`,
    );
  return state;
}

// The points of `points` (findChangePoints) that no entry of `state` covers.
export function unreported(points, state, data, tolerance = REPORT_TOLERANCE) {
  const positions = new Map(
    seriesOf(data).map((line) => {
      const byCommit = new Map();
      for (const [index, point] of line.points.entries())
        byCommit.set(point.commit.id, [...(byCommit.get(point.commit.id) ?? []), index]);
      return [key(line.suite, line.bench), byCommit];
    }),
  );
  return points.filter(
    (point) =>
      !state.reported.some(
        (item) =>
          item.suite === point.suite &&
          item.bench === point.bench &&
          item.kind === point.kind &&
          (positions.get(key(point.suite, point.bench))?.get(item.commit) ?? []).some(
            (index) => Math.abs(index - point.index) <= tolerance,
          ),
      ),
  );
}

export function withReported(state, points, now = Date.now()) {
  const added = points.map((point) => ({
    suite: point.suite,
    bench: point.bench,
    commit: point.commit.id,
    kind: point.kind,
    change: point.change,
    reportedAt: new Date(now).toISOString(),
  }));
  return { format: FORMAT, version: VERSION, reported: [...state.reported, ...added].slice(-MAX_KEPT) };
}

export function writeState(path, state) {
  writeFileAtomicSync(path, `${JSON.stringify(state, null, 2)}\n`);
}
