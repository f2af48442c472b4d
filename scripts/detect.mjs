#!/usr/bin/env node
// `npm run detect`: change points in a benchmark history (github-action-benchmark's data.js):
// each step of a trend line with its suite, bench, commit, means before and after, change and
// p-value (site/shared/change-points.js: Hunter / Apache Otava's method). With --state, only the
// points not reported before are reported, and --record adds them to that file; with --comment
// each commit that brought new ones gets a commit comment (bench-main does both, docs/github-actions.md).
import { resolve } from 'node:path';
import { CHANGE_POINT_DEFAULTS } from '../site/shared/change-points.js';
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { findChangePoints } from '../bench/history/detect/find.js';
import { describeMethod, renderChangePoints } from '../bench/history/detect/markdown.js';
import { readState, unreported, withReported, writeState } from '../bench/history/detect/reported.js';
import { runCommand } from '../bench/cli/run.js';
import { githubApi } from '../bench/github/api.js';
import { commentOnCommit } from '../bench/github/comment.js';
import { apiContext, appendSummary } from '../bench/github/context.js';
import { emptyBenchmarkData, parseBenchmarkData } from '../bench/history/format.js';
import { defaultHistoryPath, readHistoryFile } from '../bench/history/history-file.js';
import { readBranchFile } from '../bench/history/publish-branch.js';

const DETECT_COMMAND = {
  name: 'detect',
  invocation: 'npm run detect --',
  synopsis: '[--data FILE | --repo REPO [--branch NAME] [--dir PATH]] [options]',
  summary:
    'Change points in a benchmark history (data.js), each with its suite, bench, commit, means, change and p-value.\nWhen GITHUB_STEP_SUMMARY is set, the report is added to the job summary.',
  options: {
    data: {
      type: 'string',
      value: 'FILE',
      help: 'a data.js',
      defaultText: defaultHistoryPath('.').replace(`${resolve('.')}/`, ''),
    },
    repo: {
      type: 'string',
      value: 'REPO',
      help: 'read DIR/data.js from the pages branch of this repository (path or URL)',
    },
    branch: { type: 'string', value: 'NAME', help: 'that branch', default: 'gh-pages' },
    dir: { type: 'string', value: 'PATH', help: 'the data directory in it', default: 'dev/bench' },
    json: { type: 'string', value: 'FILE', help: 'write the change points as JSON' },
    markdown: { type: 'string', value: 'FILE', help: 'write the markdown report' },
    state: {
      type: 'string',
      value: 'FILE',
      help: 'report only change points this file does not hold (created if missing)',
    },
    record: { type: 'boolean', help: 'add the reported points to --state' },
    comment: {
      type: 'boolean',
      help: 'post a commit comment on each commit with new points (GITHUB_TOKEN, GITHUB_REPOSITORY; GITHUB_API_URL on GitHub Enterprise)',
    },
    'max-p': { type: 'probability', value: 'P', help: 'significance level', default: CHANGE_POINT_DEFAULTS.maxPValue },
    window: {
      type: 'count',
      min: 2,
      value: 'N',
      help: 'window of the split step, in runs',
      default: CHANGE_POINT_DEFAULTS.windowLength,
    },
    'min-magnitude': {
      type: 'nonNegative',
      value: 'M',
      help: 'ignore changes smaller than M (0.05 = 5 %)',
      default: CHANGE_POINT_DEFAULTS.minMagnitude,
    },
  },
  check: (values) => [
    ...(values.data && values.repo ? ['pass --data or --repo, not both'] : []),
    ...(values.record && !values.state ? ['--record needs --state FILE'] : []),
  ],
};

async function loadData(options) {
  if (!options.repo) {
    const file = resolve(options.data ?? defaultHistoryPath(process.cwd()));
    return { data: readHistoryFile(file), source: options.data ?? 'the local history' };
  }
  const source = `${options.dir}/data.js on branch ${options.branch}`;
  const text = await readBranchFile({ repo: options.repo, branch: options.branch, dir: options.dir });
  return { data: text === null ? emptyBenchmarkData() : parseBenchmarkData(text, source), source };
}

// One comment per commit, listing the new change points it brought.
async function comment(points, method) {
  const context = apiContext();
  const api = githubApi(context);
  const byCommit = new Map();
  for (const point of points.filter((item) => /^[0-9a-f]{40}$/.test(item.commit.id)))
    byCommit.set(point.commit.id, [...(byCommit.get(point.commit.id) ?? []), point]);
  for (const [sha, here] of byCommit) {
    const body = renderChangePoints(here, { title: 'perfgate: change points at this commit', method, empty: '' });
    const id = await commentOnCommit({ api, repository: context.repository, sha, body });
    console.log(`commented on ${sha} (comment ${id}): ${here.length} change point(s)`);
  }
}

await runCommand(DETECT_COMMAND, async ({ values }) => {
  const options = {
    ...values,
    detection: {
      ...CHANGE_POINT_DEFAULTS,
      maxPValue: values['max-p'],
      windowLength: values.window,
      minMagnitude: values['min-magnitude'],
    },
  };
  const { data, source } = await loadData(options);
  const all = findChangePoints(data, options.detection);
  const state = options.state ? readState(resolve(options.state)) : null;
  const points = state ? unreported(all, state, data) : all;
  const method = describeMethod(options.detection);
  const title = state
    ? `perfgate: ${points.length} new change point(s) (${all.length} in the history)`
    : `perfgate: ${points.length} change point(s)`;
  const markdown = renderChangePoints(points, {
    title,
    method: `${method} Source: ${source}.`,
    empty: state ? 'Nothing new since the last report.' : 'No change point.',
  });
  console.log(markdown);
  appendSummary(markdown);
  if (options.json)
    writeFileAtomicSync(
      resolve(options.json),
      `${JSON.stringify({ format: 'perfgate-change-points', version: 1, options: options.detection, changePoints: all.map((point) => ({ ...point, new: points.includes(point) })) }, null, 2)}\n`,
    );
  if (options.markdown) writeFileAtomicSync(resolve(options.markdown), markdown);
  if (options.comment && points.length) await comment(points, method);
  // Recorded after the comments: a failed comment is retried by the next run instead of lost.
  if (options.record) writeState(resolve(options.state), withReported(state, points));
});
