#!/usr/bin/env node
// `npm run publish`: appends a run's github-action-benchmark inputs to the data.js of a
// pages branch, for users who do not run the GitHub action; the trend site reads the result.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandLine, runCommand } from '../bench/cli/run.js';
import { commitFromGit, originWebUrl, publishRun, readBenchmarkInput } from '../bench/history/index.js';
import { projectName } from '../bench/project/config.js';
import { SUITE_NAMES, suiteNames, TOOLS, TREND_SUITES, trendSuiteNames } from '../bench/results/benchmark-action.js';
import { OUTPUT_FILES } from '../bench/results/write.js';
import { TREND_FILES } from '../bench/comparison/trend/write.js';

const PUBLISH_COMMAND = {
  name: 'publish',
  invocation: 'npm run publish --',
  synopsis: '--repo REPO (--results DIR | --input FILE:TOOL[:SUITE] ...) [options]',
  summary:
    "Appends a run's github-action-benchmark inputs to the data.js of a pages branch, for users who do not run\nthe GitHub action; the trend site reads the result.",
  options: {
    repo: {
      type: 'string',
      value: 'REPO',
      required: true,
      help: 'the repository of the pages branch: a local path or a remote URL',
    },
    results: {
      type: 'string',
      multiple: true,
      value: 'DIR',
      help: `a results directory of \`${commandLine('bench')}\`: publishes its ${OUTPUT_FILES.bigger} as "<name> throughput" and ${OUTPUT_FILES.smaller} as "<name> latency", <name> the perfgate.config's name at --commit-dir ("${SUITE_NAMES.bigger}" without one) (and \`${commandLine('trend')}\`'s files there as "<name> throughput vs baseline" and "<name> latency vs baseline", "${TREND_SUITES.bigger}" without one)`,
    },
    input: {
      type: 'string',
      multiple: true,
      value: 'FILE:TOOL[:SUITE]',
      help: `a github-action-benchmark input file, its tool (${TOOLS.bigger} or ${TOOLS.smaller}) and suite name (default: "<name> throughput" or "<name> latency" by tool, as for --results); repeat for several files`,
    },
    branch: { type: 'string', value: 'NAME', help: 'the pages branch, created if missing', defaultText: 'gh-pages' },
    dir: { type: 'string', value: 'PATH', help: 'the data directory in that branch', defaultText: 'dev/bench' },
    'max-items': { type: 'count', value: 'N', help: 'keep only the N newest runs of each suite', defaultText: 'all' },
    'commit-dir': {
      type: 'string',
      value: 'DIR',
      help: 'the checkout that was measured; its HEAD names the run',
      default: '.',
    },
    'repo-url': {
      type: 'string',
      value: 'URL',
      help: 'web address of the measured repository, for commit links',
      defaultText: 'from the origin remote of --commit-dir',
    },
    'max-tries': {
      type: 'count',
      value: 'N',
      help: 'push attempts while other publishers move the branch',
      defaultText: '5',
    },
  },
  check: (values) => [
    ...readInputs(values).problems,
    ...(values['repo-url'] !== undefined && !/^https?:\/\//.test(values['repo-url'])
      ? [`--repo-url must be an http(s):// address (got "${values['repo-url']}")`]
      : []),
  ],
};
const suiteByTool = (names) => ({ [TOOLS.bigger]: names.bigger, [TOOLS.smaller]: names.smaller });
const INPUT_PATTERN = new RegExp(`^(.+):(${Object.values(TOOLS).join('|')})(?::(.+))?$`);

// "FILE:TOOL[:SUITE]" -> { file, tool, suite }; the tool's name anchors the split, so a
// suite name may hold colons.
function parseInput(text, names, problems) {
  const match = INPUT_PATTERN.exec(text);
  if (!match) {
    problems.push(`--input "${text}" is not FILE:TOOL[:SUITE] with TOOL ${Object.values(TOOLS).join(' or ')}`);
    return null;
  }
  const [, file, tool, suite = suiteByTool(names)[tool]] = match;
  return { file, tool, suite };
}

// --results and --input -> the files to publish, and what is wrong with them; names: suiteNames',
// trendNames: trendSuiteNames'.
function readInputs(values, names = SUITE_NAMES, trendNames = TREND_SUITES) {
  const problems = [];
  const inputs = [
    ...(values.results ?? []).flatMap((dir) => [
      { file: resolve(dir, OUTPUT_FILES.bigger), tool: TOOLS.bigger, suite: names.bigger },
      { file: resolve(dir, OUTPUT_FILES.smaller), tool: TOOLS.smaller, suite: names.smaller },
      // The relative trend's lines, when `perfgate trend` measured them into the same directory.
      ...['bigger', 'smaller']
        .map((kind) => ({ file: resolve(dir, TREND_FILES[kind]), tool: TOOLS[kind], suite: trendNames[kind] }))
        .filter(({ file }) => existsSync(file)),
    ]),
    ...(values.input ?? []).map((text) => parseInput(text, names, problems)),
  ];
  if (!inputs.length) problems.push('nothing to publish: pass --results DIR or --input FILE:TOOL[:SUITE]');
  return { inputs, problems };
}

const interruption = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interruption.abort());

await runCommand(PUBLISH_COMMAND, async ({ values }) => {
  const commitDir = resolve(values['commit-dir']);
  // A project's runs are its own group on the site, under its config's name.
  const project = projectName(commitDir) ?? undefined;
  const options = {
    ...values,
    commitDir,
    inputs: readInputs(values, suiteNames(project), trendSuiteNames(project)).inputs,
  };
  const suites = options.inputs.map(({ file, tool, suite }) => ({ suite, tool, benches: readBenchmarkInput(file) }));
  const date = Date.now();
  const repoUrl = values['repo-url'] ?? originWebUrl(options.commitDir);
  const run = { commit: commitFromGit(options.commitDir, { date, repoUrl }), date, suites };
  const { attempts, added, where } = await publishRun({
    repo: options.repo,
    branch: options.branch,
    dir: options.dir,
    run,
    maxItems: values['max-items'],
    maxTries: values['max-tries'],
    // An unknown address keeps the one the data already has.
    repoUrl: repoUrl || undefined,
    signal: interruption.signal,
    log: (line) => console.error(`perfgate: ${line}`),
  });
  console.log(
    `published ${added.map((suite) => `"${suite}"`).join(', ')} for ${run.commit.id} to ${where}` +
      `${attempts > 1 ? ` (after ${attempts} tries)` : ''}`,
  );
});
