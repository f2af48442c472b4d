// The local history: a data.js in github-action-benchmark's gh-pages format (so the same
// trend site reads it), that every `npm run bench` appends its run to.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { appendRun } from './append.js';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { emptyBenchmarkData, parseBenchmarkData, serializeBenchmarkData } from './format.js';
import { commitFromGit } from './git-commit.js';
import { kneeSuiteName, suiteNames, TOOLS } from '../results/benchmark-action.js';

export const DEFAULT_HISTORY_FILE = '.perfgate/history/data.js';

export function defaultHistoryPath(projectRoot, env = process.env) {
  return resolve(projectRoot, env.PERFGATE_HISTORY || DEFAULT_HISTORY_FILE);
}

// An absent file is an empty history; a damaged one is an error, never silently replaced.
// label names the file in errors, e.g. its place in a pages branch rather than a temp path.
export function readHistoryFile(path, label = path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return emptyBenchmarkData();
    throw error;
  }
  return parseBenchmarkData(text, label);
}

// run and options as appendRun's (append.js), plus label as readHistoryFile's.
// Returns the data written and the suites added.
export function appendRunToFile(path, run, { label, ...options } = {}) {
  const { data, added } = appendRun(readHistoryFile(path, label), run, options);
  writeFileAtomicSync(path, serializeBenchmarkData(data));
  return { data, added };
}

// Appends a run's github-action-benchmark inputs (bench/results/write.js) to the local
// history, one entry per suite (named after `project`, see suiteNames), named by the commit
// measured in commitDir.
export function appendToHistory({ bigger, smaller }, historyFile, { commitDir, project, date = Date.now() }) {
  const names = suiteNames(project);
  const suites = [
    { suite: names.bigger, tool: TOOLS.bigger, benches: bigger },
    { suite: names.smaller, tool: TOOLS.smaller, benches: smaller },
  ];
  return appendRunToFile(historyFile, { commit: commitFromGit(commitDir, { date }), date, suites });
}

// Appends bench --find-knee's knee lines (kneeEntries) as a run of the project's knee group.
export function appendKneesToHistory(knees, historyFile, { commitDir, project, date = Date.now() }) {
  const suites = [{ suite: kneeSuiteName(project), tool: TOOLS.bigger, benches: knees }];
  return appendRunToFile(historyFile, { commit: commitFromGit(commitDir, { date }), date, suites });
}
