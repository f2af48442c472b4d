#!/usr/bin/env node
// Readies the pages branch for bench-main's publishing steps (docs/github-actions.md):
//   - creates it (with only .nojekyll) when the repository has none yet, so that the first run
//     on a new repository does not fail in github-action-benchmark, which fetches and switches to it;
//   - tells whether this commit is already in the trend: a nightly or manual run on an unchanged
//     commit sets the step output alert=false, so the action does not alert against the previous
//     commit a second time (it compares with the newest entry of another commit, every time).
//   node scripts/pages-branch.mjs --repo REPO --commit SHA [--branch gh-pages] [--dir dev/bench] [--suite NAME]...
// GITHUB_TOKEN, when set, authenticates git to GITHUB_SERVER_URL through the environment.
// Outputs (GITHUB_OUTPUT): created=true|false, alert=true|false. Exit 0, 1 git failure, 2 bad command line.
import { parseArgs } from 'node:util';
import { PerfgateError } from '../bench/errors.js';
import { appendSummary, gitAuthEnv, setOutputs } from '../bench/github/context.js';
import { historyErrors } from '../bench/history/errors.js';
import { parseBenchmarkData } from '../bench/history/format.js';
import { ensureBranch, readBranchFile } from '../bench/history/publish-branch.js';
import { SUITE_NAMES } from '../bench/results/benchmark-action.js';

const USAGE = 'usage: node scripts/pages-branch.mjs --repo REPO --commit SHA [--branch gh-pages] [--dir dev/bench] [--suite NAME]...';

try {
  let values;
  try {
    ({ values } = parseArgs({ options: { repo: { type: 'string' }, commit: { type: 'string' }, branch: { type: 'string', default: 'gh-pages' }, dir: { type: 'string', default: 'dev/bench' }, suite: { type: 'string', multiple: true } } }));
  } catch (error) {
    throw historyErrors.badArgs([error.message], USAGE);
  }
  const problems = [...(values.repo ? [] : ['--repo is required']), ...(/^[0-9a-f]{40}$/.test(values.commit ?? '') ? [] : ['--commit must be a full 40-hex commit id'])];
  if (problems.length) throw historyErrors.badArgs(problems, USAGE);
  Object.assign(process.env, gitAuthEnv(process.env.GITHUB_TOKEN, process.env.GITHUB_SERVER_URL || undefined));
  const suites = values.suite ?? Object.values(SUITE_NAMES);
  const { created } = await ensureBranch({ repo: values.repo, branch: values.branch });
  const text = created ? null : await readBranchFile({ repo: values.repo, branch: values.branch, dir: values.dir });
  const data = text === null ? { entries: {} } : parseBenchmarkData(text, `${values.dir}/data.js on branch ${values.branch}`);
  const measured = suites.every((suite) => (data.entries[suite] ?? []).some((entry) => entry.commit?.id === values.commit));
  const lines = [
    created ? `created branch ${values.branch} (it did not exist)` : `branch ${values.branch} exists`,
    measured ? `${values.commit} is already in the trend: this run adds its values without alerting again` : `${values.commit} is new to the trend: alerts on`,
  ];
  setOutputs({ created, alert: !measured });
  for (const line of lines) console.log(line);
  appendSummary(lines.map((line) => `- ${line}`).join('\n'));
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = error.code === 'PG_BAD_ARGS' ? 2 : 1;
}
