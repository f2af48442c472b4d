// The errors of the GitHub glue (PR comment, upgrade gate, shard merge), each naming the
// problem and the fix, in the catalogue style of bench/errors.js.
import { PerfgateError } from '../errors.js';

export const githubErrors = {
  missingContext: (name) => new PerfgateError('PG_GITHUB_CONTEXT',
    `${name} is not set: this runs inside GitHub Actions, which sets it; to run it by hand, set it as docs/github-actions.md shows`),
  badEvent: (file, problem) => new PerfgateError('PG_GITHUB_EVENT',
    `the event payload ${file} ${problem}: this step must run on the event its workflow declares`),
  api: (method, path, status, detail) => new PerfgateError('PG_GITHUB_API',
    `GitHub API ${method} ${path} answered ${status}${detail ? ` (${detail})` : ''}: check the job's permissions and that the run, pull request or comment still exists`),
  hostileArtifact: (problem) => new PerfgateError('PG_UNTRUSTED_ARTIFACT',
    `refused the benchmark artifact: ${problem}. Nothing was posted; the artifact comes from pull-request code, look at the run that uploaded it`),
  badArgs: (problems, usage) => new PerfgateError('PG_BAD_ARGS',
    `invalid command line:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n${usage}`),
  badLockfile: (what, problem) => new PerfgateError('PG_BAD_LOCKFILE',
    `${what} ${problem}: the upgrade gate compares the package-lock.json (lockfileVersion 2 or 3) of the base and of the pull request`),
  duplicateBenchmark: (name, first, second) => new PerfgateError('PG_DUPLICATE_BENCHMARK',
    `benchmark "${name}" is in two shards (${first} and ${second}): give each shard different variants so that every trend line has one value per run`),
};
