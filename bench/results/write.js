// Where a run's data leaves perfgate: the files of the results directory, the job summary
// on GitHub Actions, and the local history that the trend site reads.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { toBenchmarkAction } from './benchmark-action.js';
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
