// Reads a github-action-benchmark input file (a JSON array of {name, value, unit, range?,
// extra?}), such as the benchmark-action-*.json files `npm run bench` writes.
import { readFileSync } from 'node:fs';
import { historyErrors } from '../errors.js';
import { validateBenches } from './schema.js';

export function readBenchmarkInput(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw historyErrors.badInput(
      file,
      error.code === 'ENOENT' ? 'does not exist' : `cannot be read (${error.message})`,
    );
  }
  let benches;
  try {
    benches = JSON.parse(text);
  } catch (error) {
    throw historyErrors.badInput(file, `is not JSON (${error.message})`);
  }
  const problems = validateBenches(benches);
  if (problems.length) throw historyErrors.badInput(file, `is not valid: ${problems.join('; ')}`);
  return benches;
}
