// Reads a github-action-benchmark input file (a JSON array of {name, value, unit, range?,
// extra?}), such as the benchmark-action-*.json files `npm run bench` writes.
import { historyErrors } from '../core/errors.js';
import { readInputJson } from '../core/read-file.js';
import { validateBenches } from './schema.js';

export function readBenchmarkInput(file) {
  const benches = readInputJson(file, (problem) => historyErrors.badInput(file, problem));
  const problems = validateBenches(benches);
  if (problems.length) throw historyErrors.badInput(file, `is not valid: ${problems.join('; ')}`);
  return benches;
}
