// Where a comparison leaves perfgate: comparison.json (its format: schema.js) and the
// markdown report comparison.md beside it, and each side's resolved lockfile when the sides have
// their own (base.package-lock.json, head.package-lock.json); links in the report are relative to that folder.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { comparisonMarkdown } from './report.js';

// Returns the markdown, for the terminal and the job summary. lockfiles: each side's resolved
// package-lock.json text (bench/comparison/overrides.js sideLockfiles), kept beside the results.
export function writeComparison(comparison, outDir, lockfiles = null) {
  if (lockfiles)
    for (const side of ['base', 'head'])
      writeFileAtomicSync(join(outDir, `${side}.package-lock.json`), lockfiles[side]);
  const markdown = comparisonMarkdown(comparison, { linkFrom: outDir });
  writeFileAtomicSync(join(outDir, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  writeFileAtomicSync(join(outDir, 'comparison.md'), markdown);
  return markdown;
}
