// The text form of github-action-benchmark's gh-pages data file: `window.BENCHMARK_DATA = `
// followed by JSON. With the commit fields of git-commit.js and the bench key order of
// append.js, a run written by perfgate and the same run written by the action are the same
// bytes (scripts/check-action-format.mjs runs the action's code to compare), so the two diff
// cleanly in the pages branch.
import { historyErrors } from '../core/errors.js';
import { validateBenchmarkData } from './schema.js';

export const SCRIPT_PREFIX = 'window.BENCHMARK_DATA = ';
// The action writes no `;`, but a hand-edited file often has one; leading space or a BOM too.
const PREFIX_PATTERN = /^\uFEFF?\s*window\.BENCHMARK_DATA\s*=\s*/;
const TRAILER_PATTERN = /;?\s*$/;

// A hostile file can break every field: the first few tell what is wrong.
const SHOWN_PROBLEMS = 5;
function summarize(problems) {
  const more = problems.length - SHOWN_PROBLEMS;
  return problems.slice(0, SHOWN_PROBLEMS).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

export function emptyBenchmarkData(repoUrl = '') {
  return { lastUpdate: 0, repoUrl, entries: {} };
}

// `file` only names the data in error messages (a path, or a branch and path of a remote).
export function parseBenchmarkData(text, file) {
  const prefix = PREFIX_PATTERN.exec(text);
  if (!prefix) {
    throw historyErrors.malformed(file, `it does not start with \`${SCRIPT_PREFIX.trim()}\``);
  }
  const json = text.slice(prefix[0].length).replace(TRAILER_PATTERN, '');
  let data;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw historyErrors.malformed(file, `its JSON does not parse (${error.message})`);
  }
  const problems = validateBenchmarkData(data);
  if (problems.length) throw historyErrors.malformed(file, summarize(problems));
  return data;
}

export function serializeBenchmarkData(data) {
  return SCRIPT_PREFIX + JSON.stringify(data, null, 2);
}
