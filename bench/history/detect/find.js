// Change points of every trend line of a benchmark data file, each named by suite, bench and
// the commit of its first run after the step (with the run before, so the suspects are the
// commits between the two).
import { CHANGE_POINT_DEFAULTS, detectChangePoints } from '../../../site/shared/change-points.js';
import { toolBiggerIsBetter } from '../../../site/shared/benchmark-data.js';
import { seriesOf } from './series.js';

const commitRef = (commit) => ({
  id: commit.id,
  url: commit.url ?? '',
  message: (commit.message ?? '').split('\n')[0],
  timestamp: commit.timestamp ?? '',
});

// 'regression' or 'improvement' by the tool's direction; 'change' when the tool has none.
function kindOf(change, bigger) {
  if (bigger === null || change === null) return 'change';
  return change > 0 === bigger ? 'improvement' : 'regression';
}

export function findChangePoints(data, options = {}) {
  const settings = { ...CHANGE_POINT_DEFAULTS, ...options };
  return seriesOf(data).flatMap((line) => {
    const bigger = toolBiggerIsBetter(line.tool);
    return detectChangePoints(
      line.points.map((point) => point.value),
      settings,
    ).map((found) => ({
      suite: line.suite,
      bench: line.bench,
      unit: line.unit,
      biggerIsBetter: bigger,
      kind: kindOf(found.change, bigger),
      index: found.index,
      runs: line.points.length,
      commit: commitRef(line.points[found.index].commit),
      previousCommit: commitRef(line.points[found.index - 1].commit),
      date: line.points[found.index].date,
      before: found.before,
      after: found.after,
      change: found.change,
      pValue: found.pValue,
    }));
  });
}
