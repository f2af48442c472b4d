#!/usr/bin/env node
// `npm run detect`: change points in a benchmark history (github-action-benchmark's data.js):
// each step of a trend line with its suite, bench, commit, means before and after, change and
// p-value (docs/lib/change-points.js: Hunter / Apache Otava's method). With --state, only the
// points not reported before are reported, and --record adds them to that file; with --comment
// each commit that brought new ones gets a commit comment (bench-main does both, docs/github-actions.md).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHANGE_POINT_DEFAULTS } from '../docs/lib/change-points.js';
import { writeFileAtomicSync } from '../bench/atomic-file.js';
import { findChangePoints } from '../bench/detect/find.js';
import { describeMethod, renderChangePoints } from '../bench/detect/markdown.js';
import { readState, unreported, withReported, writeState } from '../bench/detect/reported.js';
import { PerfgateError } from '../bench/errors.js';
import { githubApi } from '../bench/github/api.js';
import { commentOnCommit } from '../bench/github/comment.js';
import { apiContext, appendSummary } from '../bench/github/context.js';
import { historyErrors } from '../bench/history/errors.js';
import { emptyBenchmarkData, parseBenchmarkData } from '../bench/history/format.js';
import { defaultHistoryPath, readHistoryFile } from '../bench/history/history-file.js';
import { readBranchFile } from '../bench/history/publish-branch.js';

const USAGE = `usage: npm run detect -- [--data FILE | --repo REPO [--branch NAME] [--dir PATH]] [options]
  --data FILE          a data.js (default: the local history, ${defaultHistoryPath('.').replace(`${resolve('.')}/`, '')})
  --repo REPO          read DIR/data.js from the pages branch of this repository (path or URL)
  --branch NAME        that branch (default: gh-pages)
  --dir PATH           the data directory in it (default: dev/bench)
  --json FILE          write the change points as JSON
  --markdown FILE      write the markdown report
  --state FILE         report only change points this file does not hold (created if missing)
  --record             add the reported points to --state
  --comment            post a commit comment on each commit with new points (GITHUB_TOKEN,
                       GITHUB_REPOSITORY; GITHUB_API_URL on GitHub Enterprise)
  --max-p P            significance level (default: ${CHANGE_POINT_DEFAULTS.maxPValue})
  --window N           window of the split step, in runs (default: ${CHANGE_POINT_DEFAULTS.windowLength})
  --min-magnitude M    ignore changes smaller than M (0.05 = 5 %; default: ${CHANGE_POINT_DEFAULTS.minMagnitude})
When GITHUB_STEP_SUMMARY is set, the report is added to the job summary.`;

const OPTIONS = {
  data: { type: 'string' }, repo: { type: 'string' }, branch: { type: 'string', default: 'gh-pages' }, dir: { type: 'string', default: 'dev/bench' },
  json: { type: 'string' }, markdown: { type: 'string' }, state: { type: 'string' }, record: { type: 'boolean' }, comment: { type: 'boolean' },
  'max-p': { type: 'string' }, window: { type: 'string' }, 'min-magnitude': { type: 'string' }, help: { type: 'boolean' },
};

function numberOption(values, flag, valid, rule, problems) {
  if (values[flag] === undefined) return undefined;
  const value = Number(values[flag]);
  if (!valid(value)) problems.push(`--${flag} must be ${rule} (got "${values[flag]}")`);
  return value;
}

function parseCommand(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false });
  } catch (error) {
    throw historyErrors.badArgs([error.message], 'see npm run detect -- --help');
  }
  const { values } = parsed;
  if (values.help) return { help: true };
  const problems = [];
  if (values.data && values.repo) problems.push('pass --data or --repo, not both');
  if (values.record && !values.state) problems.push('--record needs --state FILE');
  const detection = {
    maxPValue: numberOption(values, 'max-p', (p) => p > 0 && p <= 1, 'a number in (0, 1]', problems),
    windowLength: numberOption(values, 'window', (n) => Number.isInteger(n) && n >= 2, 'a whole number of at least 2', problems),
    minMagnitude: numberOption(values, 'min-magnitude', (m) => m >= 0, 'a number of at least 0', problems),
  };
  if (problems.length) throw historyErrors.badArgs(problems, 'see npm run detect -- --help');
  return { ...values, detection: { ...CHANGE_POINT_DEFAULTS, ...Object.fromEntries(Object.entries(detection).filter(([, v]) => v !== undefined)) } };
}

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
  for (const point of points.filter((item) => /^[0-9a-f]{40}$/.test(item.commit.id))) byCommit.set(point.commit.id, [...(byCommit.get(point.commit.id) ?? []), point]);
  for (const [sha, here] of byCommit) {
    const body = renderChangePoints(here, { title: 'perfgate: change points at this commit', method, empty: '' });
    const id = await commentOnCommit({ api, repository: context.repository, sha, body });
    console.log(`commented on ${sha} (comment ${id}): ${here.length} change point(s)`);
  }
}

async function main() {
  const options = parseCommand(process.argv.slice(2));
  if (options.help) return console.log(USAGE);
  const { data, source } = await loadData(options);
  const all = findChangePoints(data, options.detection);
  const state = options.state ? readState(resolve(options.state)) : null;
  const points = state ? unreported(all, state, data) : all;
  const method = describeMethod(options.detection);
  const title = state ? `perfgate: ${points.length} new change point(s) (${all.length} in the history)` : `perfgate: ${points.length} change point(s)`;
  const markdown = renderChangePoints(points, { title, method: `${method} Source: ${source}.`, empty: state ? 'Nothing new since the last report.' : 'No change point.' });
  console.log(markdown);
  appendSummary(markdown);
  if (options.json) writeFileAtomicSync(resolve(options.json), `${JSON.stringify({ format: 'perfgate-change-points', version: 1, options: options.detection, changePoints: all.map((point) => ({ ...point, new: points.includes(point) })) }, null, 2)}\n`);
  if (options.markdown) writeFileAtomicSync(resolve(options.markdown), markdown);
  if (options.comment && points.length) await comment(points, method);
  // Recorded after the comments: a failed comment is retried by the next run instead of lost.
  if (options.record) writeState(resolve(options.state), withReported(state, points));
}

try {
  await main();
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = error.code === 'PG_BAD_ARGS' ? 2 : 1;
}
