// Adds one perfgate run to benchmark data the way github-action-benchmark does: one entry
// per suite (a chart group such as "perfgate throughput"), oldest first, each suite cut to
// its `maxItems` newest entries (the action's max-items-in-chart).
import { historyErrors } from '../core/errors.js';
import { validateRun } from './schema.js';

// The key order the action writes a bench in (its zod schema: name, value, range, unit, extra),
// whatever order the input file had.
function actionKeyOrder({ name, value, range, unit, extra }) {
  return { name, value, ...(range === undefined ? {} : { range }), unit, ...(extra === undefined ? {} : { extra }) };
}

function checkMaxItems(maxItems) {
  if (maxItems === undefined || maxItems === null) return;
  if (!Number.isInteger(maxItems) || maxItems < 1) {
    throw historyErrors.invalidRun([
      `maxItems must be a whole number of at least 1, or null for no bound (got ${maxItems})`,
    ]);
  }
}

// run: { commit, date, suites: [{ suite, tool, benches }] }. Returns new data; `data` is
// left as it was, so a caller that fails later has nothing half-applied.
// repoUrl, when given, replaces the data's repoUrl (the action sets it on every write).
export function appendRun(data, run, { maxItems = null, repoUrl, now = Date.now() } = {}) {
  const problems = validateRun(run);
  if (problems.length) throw historyErrors.invalidRun(problems);
  checkMaxItems(maxItems);
  // A Map, not an object, so that a suite named "__proto__" stays a suite.
  const entries = new Map(Object.entries(data.entries));
  const added = [];
  // A suite without benches (every benchmark of its kind failed) would add an empty run.
  for (const { suite, tool, benches } of run.suites.filter((item) => item.benches.length > 0)) {
    const runs = [
      ...(entries.get(suite) ?? []),
      { commit: run.commit, date: run.date, tool, benches: benches.map(actionKeyOrder) },
    ];
    entries.set(suite, maxItems ? runs.slice(-maxItems) : runs);
    added.push(suite);
  }
  return {
    data: { ...data, lastUpdate: now, repoUrl: repoUrl ?? data.repoUrl ?? '', entries: Object.fromEntries(entries) },
    added,
  };
}
