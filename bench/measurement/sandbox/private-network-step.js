// The process bench/measurement/sandbox/private-network.js starts inside the private network namespace:
// calls one export of a harness module with the JSON input and writes its JSON result (or its
// catalogued error) for the parent. Progress lines go to stderr, as the command prints them.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { PerfgateError } from '../../core/errors.js';
import { onlyLoopback } from './private-network.js';

const [modulePath, exportName, inputFile, outputFile] = process.argv.slice(2);
const write = (output) => writeFileAtomicSync(outputFile, JSON.stringify(output));

if (!onlyLoopback()) throw new Error('not in a private network namespace: refusing to run the step');
const module = await import(pathToFileURL(modulePath));
try {
  const input = JSON.parse(readFileSync(inputFile, 'utf8'));
  write({ result: await module[exportName]({ ...input, onProgress: (line) => console.error(line) }) });
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  write({ error: { code: error.code, message: error.message, exitCode: error.exitCode } });
}
process.exit(0);
