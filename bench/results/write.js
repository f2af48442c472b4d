// The files of a run's results directory: result.json's companions, the github-action-benchmark
// inputs and the table (the history takes them from here: bench/history/history-file.js).
import { join } from 'node:path';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { toBenchmarkAction } from './benchmark-action.js';
import { markdownTable } from './markdown.js';

// Where a command writes unless --out says otherwise: results/<time>-<what>, the time first so
// that runs sort in the order they were made.
export const defaultResultsDir = (what, now = new Date()) =>
  `results/${now.toISOString().replace(/[:.]/g, '-')}-${what}`;

const asJson = (value) => `${JSON.stringify(value, null, 2)}\n`;

export const OUTPUT_FILES = {
  result: 'result.json',
  bigger: 'benchmark-action-bigger.json',
  smaller: 'benchmark-action-smaller.json',
  table: 'table.md',
  // bench --find-knee's knee lines, in github-action-benchmark's customBiggerIsBetter form.
  knee: 'benchmark-action-knee.json',
};

export function writeOutputs(result, outDir) {
  const { bigger, smaller } = toBenchmarkAction(result);
  const table = markdownTable(result);
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.bigger), asJson(bigger));
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.smaller), asJson(smaller));
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.table), table);
  return { bigger, smaller, table };
}

// bench --find-knee's knee lines (kneeEntries), beside its knee.json.
export function writeKneeEntries(entries, outDir) {
  writeFileAtomicSync(join(outDir, OUTPUT_FILES.knee), asJson(entries));
}
