// The errors of the history store and of publishing, each naming the problem and the fix
// (the catalogue style of bench/errors.js, whose PerfgateError the scripts print).
import { PerfgateError } from '../errors.js';

export const historyErrors = {
  malformed: (file, problem) => new PerfgateError('PG_HISTORY_MALFORMED',
    `benchmark data ${file} is malformed: ${problem}. Nothing was written; restore it from git or move it aside (a new history starts empty)`),
  invalidRun: (problems) => new PerfgateError('PG_HISTORY_INVALID_RUN',
    `refused to record a run with invalid data: ${problems.join('; ')}`),
  badInput: (file, problem) => new PerfgateError('PG_BENCHMARK_INPUT',
    `benchmark input ${file} ${problem}: pass a github-action-benchmark input file (a JSON array of {name, value, unit}) such as the benchmark-action-*.json files that \`npm run bench\` writes`),
  badArgs: (problems, usageHint) => new PerfgateError('PG_BAD_ARGS',
    `invalid command line:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n${usageHint}`),
  publishFailed: (what, detail, fix) => new PerfgateError('PG_PUBLISH_FAILED',
    `publishing failed, the pages branch was not changed: ${what}${detail ? `\n${detail}` : ''}\n${fix}`),
  branchUnreadable: (where, detail) => new PerfgateError('PG_BRANCH_UNREADABLE',
    `cannot read branch ${where}${detail ? `:\n${detail}` : ''}\ncheck --repo (a path or URL of a git repository) and your access to it`),
  badState: (file, problem) => new PerfgateError('PG_DETECT_STATE',
    `the reported change points ${file} are unreadable: ${problem}. Nothing was reported; move the file aside to start again (every current change point is then reported once more)`),
  publishInterrupted: () => new PerfgateError('PG_PUBLISH_INTERRUPTED',
    'publishing was interrupted: if it was pushing, the run may have landed; look at the branch before publishing again, so that the run is not added twice'),
};
