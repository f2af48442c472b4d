#!/usr/bin/env node
// Readies the pages branch for bench-main's publishing steps (docs/github-actions.md):
//   - creates it (with only .nojekyll) when the repository has none yet, so that the first run
//     on a new repository does not fail in github-action-benchmark, which fetches and switches to it;
//   - tells whether this run alerts (bench/history/trend-alert.js): a commit new to the trend does,
//     a nightly or manual run on an unchanged commit does not (alert=false: the action would alert
//     against the previous commit a second time), a re-run of a failed push run does again.
//   node scripts/pages-branch.mjs --repo REPO --commit SHA [--branch gh-pages] [--dir dev/bench] [--suite NAME]...
// GITHUB_TOKEN, when set, authenticates git to GITHUB_SERVER_URL through the environment.
// Outputs (GITHUB_OUTPUT): created=true|false, alert=true|false.
import { runCommand } from '../bench/cli/run.js';
import { appendSummary, gitAuthEnv, setOutputs } from '../bench/github/context.js';
import { parseBenchmarkData } from '../bench/history/format.js';
import { ensureBranch, readBranchFile } from '../bench/history/publish-branch.js';
import { SUITE_NAMES } from '../bench/results/benchmark-action.js';
import { runFromEnvironment, trendAlert } from '../bench/history/trend-alert.js';

const PAGES_BRANCH_COMMAND = {
  name: 'pages-branch',
  invocation: 'node scripts/pages-branch.mjs',
  synopsis: '--repo REPO --commit SHA [--branch gh-pages] [--dir dev/bench] [--suite NAME]...',
  summary:
    'Creates the pages branch when missing; sets the step output alert=false when the commit is already in the trend,\nunless this is a re-run of a push run (GITHUB_RUN_ATTEMPT > 1). Exit 0, 1 git failure, 2 bad command line.',
  options: {
    repo: { type: 'string', value: 'REPO', help: 'the repository (path or URL)', required: true },
    commit: { type: 'string', value: 'SHA', help: 'the commit this run measured', required: true },
    branch: { type: 'string', value: 'NAME', help: 'the pages branch', default: 'gh-pages' },
    dir: { type: 'string', value: 'PATH', help: 'the data directory in it', default: 'dev/bench' },
    suite: {
      type: 'list',
      value: 'NAME',
      help: 'the suites this run publishes',
      defaultText: Object.values(SUITE_NAMES).join(','),
    },
  },
  check: (values) =>
    values.commit && !/^[0-9a-f]{40}$/.test(values.commit) ? ['--commit must be a full 40-hex commit id'] : [],
};

await runCommand(PAGES_BRANCH_COMMAND, async ({ values }) => {
  Object.assign(process.env, gitAuthEnv(process.env.GITHUB_TOKEN, process.env.GITHUB_SERVER_URL || undefined));
  const suites = values.suite ?? Object.values(SUITE_NAMES);
  const { created } = await ensureBranch({ repo: values.repo, branch: values.branch });
  const text = created ? null : await readBranchFile({ repo: values.repo, branch: values.branch, dir: values.dir });
  const data =
    text === null ? { entries: {} } : parseBenchmarkData(text, `${values.dir}/data.js on branch ${values.branch}`);
  const measured = suites.every((suite) =>
    (data.entries[suite] ?? []).some((entry) => entry.commit?.id === values.commit),
  );
  const { alert, why } = trendAlert({ measured, ...runFromEnvironment(process.env) });
  const lines = [
    created ? `created branch ${values.branch} (it did not exist)` : `branch ${values.branch} exists`,
    `${values.commit} ${why}`,
  ];
  setOutputs({ created, alert });
  for (const line of lines) console.log(line);
  appendSummary(lines.map((line) => `- ${line}`).join('\n'));
});
