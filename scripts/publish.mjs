#!/usr/bin/env node
// `npm run publish`: appends a run's github-action-benchmark inputs to the data.js of a
// pages branch, for users who do not run the GitHub action; the trend site reads the result.
import { resolve } from 'node:path';
import { minimist } from 'zx';
import { PerfgateError } from '../bench/errors.js';
import { historyErrors } from '../bench/history/errors.js';
import { commitFromGit, originWebUrl, publishRun, readBenchmarkInput } from '../bench/history/index.js';
import { SUITE_NAMES, TOOLS } from '../bench/results/benchmark-action.js';
import { OUTPUT_FILES } from '../bench/results/write.js';

const USAGE = `usage: npm run publish -- --repo REPO (--results DIR | --input FILE:TOOL[:SUITE] ...) [options]
  --repo REPO            the repository of the pages branch: a local path or a remote URL
  --results DIR          a results directory of \`npm run bench\`: publishes its
                         ${OUTPUT_FILES.bigger} as "${SUITE_NAMES.bigger}" and
                         ${OUTPUT_FILES.smaller} as "${SUITE_NAMES.smaller}"
  --input FILE:TOOL[:SUITE]
                         a github-action-benchmark input file, its tool (${TOOLS.bigger} or
                         ${TOOLS.smaller}) and suite name (default: "${SUITE_NAMES.bigger}"
                         or "${SUITE_NAMES.smaller}" by tool); repeat for several files
  --branch NAME          the pages branch, created if missing (default: gh-pages)
  --dir PATH             the data directory in that branch (default: dev/bench)
  --max-items N          keep only the N newest runs of each suite (default: all)
  --commit-dir DIR       the checkout that was measured; its HEAD names the run (default: .)
  --repo-url URL         web address of the measured repository, for commit links
                         (default: from the origin remote of --commit-dir)
  --max-tries N          push attempts while other publishers move the branch (default: 5)`;

const STRINGS = ['repo', 'results', 'input', 'branch', 'dir', 'max-items', 'commit-dir', 'repo-url', 'max-tries'];
const SUITE_BY_TOOL = { [TOOLS.bigger]: SUITE_NAMES.bigger, [TOOLS.smaller]: SUITE_NAMES.smaller };
const INPUT_PATTERN = new RegExp(`^(.+):(${Object.values(TOOLS).join('|')})(?::(.+))?$`);

const asList = (value) => (value === undefined ? [] : [value].flat());

// "FILE:TOOL[:SUITE]" -> { file, tool, suite }; the tool's name anchors the split, so a
// suite name may hold colons.
function parseInput(text, problems) {
  const match = INPUT_PATTERN.exec(text);
  if (!match) {
    problems.push(`--input "${text}" is not FILE:TOOL[:SUITE] with TOOL ${Object.values(TOOLS).join(' or ')}`);
    return null;
  }
  const [, file, tool, suite = SUITE_BY_TOOL[tool]] = match;
  return { file, tool, suite };
}

function wholeNumber(args, flag, problems) {
  if (args[flag] === undefined) return undefined;
  const value = Number(args[flag]);
  if (!Number.isInteger(value) || value < 1) problems.push(`--${flag} must be a whole number of at least 1 (got "${args[flag]}")`);
  return value;
}

function parseArgs(argv) {
  const args = minimist(argv, { string: STRINGS, boolean: ['help'] });
  if (args.help) return { help: true };
  const problems = Object.keys(args).filter((flag) => flag !== '_' && flag !== 'help' && !STRINGS.includes(flag))
    .map((flag) => `unknown option --${flag}`);
  if (args._.length) problems.push(`unexpected argument "${args._.join(' ')}": every value follows its option`);
  if (!args.repo) problems.push('--repo is required: the path or URL of the repository to publish to');
  const inputs = [
    ...asList(args.results).flatMap((dir) => [
      { file: resolve(dir, OUTPUT_FILES.bigger), tool: TOOLS.bigger, suite: SUITE_NAMES.bigger },
      { file: resolve(dir, OUTPUT_FILES.smaller), tool: TOOLS.smaller, suite: SUITE_NAMES.smaller },
    ]),
    ...asList(args.input).map((text) => parseInput(text, problems)),
  ];
  if (!inputs.length) problems.push('nothing to publish: pass --results DIR or --input FILE:TOOL[:SUITE]');
  if (args['repo-url'] !== undefined && !/^https?:\/\//.test(args['repo-url'])) problems.push(`--repo-url must be an http(s):// address (got "${args['repo-url']}")`);
  const options = {
    repo: args.repo,
    branch: args.branch,
    dir: args.dir,
    maxItems: wholeNumber(args, 'max-items', problems),
    maxTries: wholeNumber(args, 'max-tries', problems),
    commitDir: resolve(args['commit-dir'] ?? '.'),
    repoUrl: args['repo-url'],
    inputs,
  };
  if (problems.length) throw historyErrors.badArgs(problems, 'see npm run publish -- --help');
  return options;
}

const interruption = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interruption.abort());

try {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const suites = options.inputs.map(({ file, tool, suite }) => ({ suite, tool, benches: readBenchmarkInput(file) }));
  const date = Date.now();
  const repoUrl = options.repoUrl ?? originWebUrl(options.commitDir);
  const run = { commit: commitFromGit(options.commitDir, { date, repoUrl }), date, suites };
  const { attempts, added, where } = await publishRun({
    repo: options.repo,
    branch: options.branch,
    dir: options.dir,
    run,
    maxItems: options.maxItems,
    maxTries: options.maxTries,
    // An unknown address keeps the one the data already has.
    repoUrl: repoUrl || undefined,
    signal: interruption.signal,
    log: (line) => console.error(`perfgate: ${line}`),
  });
  console.log(`published ${added.map((suite) => `"${suite}"`).join(', ')} for ${run.commit.id} to ${where}` +
    `${attempts > 1 ? ` (after ${attempts} tries)` : ''}`);
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
}
