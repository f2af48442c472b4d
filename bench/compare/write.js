// Where a comparison leaves perfgate: comparison.json (its format: schema.js) and the
// markdown report comparison.md beside it; links in the report are relative to that folder.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { comparisonMarkdown } from './report.js';

// Returns the markdown, for the terminal and the job summary.
export function writeComparison(comparison, outDir) {
  const markdown = comparisonMarkdown(comparison, { linkFrom: outDir });
  writeFileAtomicSync(join(outDir, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  writeFileAtomicSync(join(outDir, 'comparison.md'), markdown);
  return markdown;
}
