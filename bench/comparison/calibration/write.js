// Where a calibration leaves perfgate: calibration.json (every trial, the injection and the
// machine, so a rate can be checked against its data) and calibration.md beside it.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';

export function writeCalibration(outDir, record, markdown) {
  writeFileAtomicSync(join(outDir, 'calibration.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileAtomicSync(join(outDir, 'calibration.md'), markdown);
}
