// Where a run's data leaves perfgate: the files of the results directory, the job summary
// on GitHub Actions, and the local history that the trend site reads.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { appendRunToFile, commitFromGit } from '../history/index.js';
import { SUITE_NAMES, toBenchmarkAction, TOOLS } from './benchmark-action.js';
import { markdownTable } from './markdown.js';

const asJson = (value) => `${JSON.stringify(value, null, 2)}\n`;

export const OUTPUT_FILES = {
  result: 'result.json',
  bigger: 'benchmark-action-bigger.json',
  smaller: 'benchmark-action-smaller.json',
  table: 'table.md',
};

export function writeOutputs(result, outDir, { stepSummaryFile = process.env.GITHUB_STEP_SUMMARY } = {}) {
  const { bigger, smaller } = toBenchmarkAction(result);
  const table = markdownTable(result);
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.bigger), asJson(bigger));
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.smaller), asJson(smaller));
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.table), table);
  if (stepSummaryFile) appendFileSync(stepSummaryFile, `${table}\n`);
  return { bigger, smaller, table };
}

// Appends the run to the local history (github-action-benchmark's data.js), one entry per suite.
export function appendToHistory({ bigger, smaller }, historyFile, { commitDir, date = Date.now() }) {
  const suites = [
    { suite: SUITE_NAMES.bigger, tool: TOOLS.bigger, benches: bigger },
    { suite: SUITE_NAMES.smaller, tool: TOOLS.smaller, benches: smaller },
  ];
  return appendRunToFile(historyFile, { commit: commitFromGit(commitDir, { date }), date, suites });
}
