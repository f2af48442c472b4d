// Compare verdicts, when the optional dev/bench/verdicts.js set window.PERFGATE_VERDICTS:
// { "<commit sha>": { "<bench name>": "regression" | "improvement" | "no change" | "inconclusive" } }.
// Absent is normal; a malformed file is reported and ignored, never fatal.
const VERDICTS = ['regression', 'improvement', 'no change', 'inconclusive'];

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

export function readVerdicts(raw) {
  if (raw === undefined) return { byCommit: {}, problem: null };
  if (!isObject(raw) || !Object.values(raw).every(isObject)) {
    return { byCommit: {}, problem: 'verdicts.js is malformed (expected { sha: { bench name: verdict } }); verdicts are not shown' };
  }
  return { byCommit: raw, problem: null };
}

// Keys may be full or abbreviated shas.
export function verdictFor(verdicts, commitId, benchName) {
  const forCommit = verdicts.byCommit[commitId] ??
    Object.entries(verdicts.byCommit).find(([sha]) => sha.length >= 7 && commitId.startsWith(sha))?.[1];
  const verdict = forCommit?.[benchName];
  return VERDICTS.includes(verdict) ? verdict : null;
}
