// The history store: github-action-benchmark's gh-pages data file (window.BENCHMARK_DATA),
// kept locally by the bench runner and published to a pages branch by scripts/publish.mjs.
export { appendRun } from './append.js';
export { writeFileAtomicSync } from '../core/atomic-file.js';
export { emptyBenchmarkData, parseBenchmarkData, serializeBenchmarkData, SCRIPT_PREFIX } from './format.js';
export { commitFromGit, originWebUrl, placeholderCommit, webUrlOfRemote } from './git-commit.js';
export {
  appendKneesToHistory,
  appendRunToFile,
  appendToHistory,
  defaultHistoryPath,
  DEFAULT_HISTORY_FILE,
  readHistoryFile,
} from './history-file.js';
export { readBenchmarkInput } from './input-file.js';
export { publishRun } from './publish-branch.js';
export { validateBenches, validateBenchmarkData, validateRun } from './schema.js';
