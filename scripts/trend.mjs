#!/usr/bin/env node
// `npm run trend`: the relative trend of main (bench/comparison/trend/). HEAD against the pinned baseline
// in duet rounds, the ratios appended to the local history; --reanchor moves the baseline.
//   npm run trend                      HEAD vs the pinned baseline (pinned on the first run)
//   npm run trend -- --reanchor        measure the configured baseline against the pinned one, pin it
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrendArgs, TREND_COMMAND } from '../bench/cli/trend-command.js';
import { runCommand } from '../bench/cli/run.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { EXIT } from '../bench/core/errors.js';
import { appendSummary } from '../bench/github/context.js';
import { appendRunToFile, commitFromGit, defaultHistoryPath, writeFileAtomicSync } from '../bench/history/index.js';
import { readBranchFile } from '../bench/history/publish-branch.js';
import { withProject } from '../bench/project/config.js';
import { TOOLS, trendSuiteNames } from '../bench/results/benchmark-action.js';
import { defaultResultsDir } from '../bench/results/write.js';
import { BASELINES_FILE } from '../bench/comparison/trend/anchors.js';
import { trendBenches } from '../bench/comparison/trend/ratios.js';
import { runTrend, trendSettings } from '../bench/comparison/trend/run-trend.js';
import { writeTrend } from '../bench/comparison/trend/write.js';

const perfgateRoot = fileURLToPath(new URL('..', import.meta.url));

await runCommand(TREND_COMMAND, async ({ values }) => {
  const parsed = parseTrendArgs(values);
  const request = await withProject(parsed, parsed.repo);
  const { config } = await resolveSuite(request);
  const repo = request.project?.root ?? resolve(parsed.repo);
  const historyFile = parsed.historyFile === null ? null : resolve(parsed.historyFile ?? defaultHistoryPath(repo));
  const baselinesFile = resolve(
    parsed.baselinesFile ?? `${dirname(historyFile ?? defaultHistoryPath(repo))}/${BASELINES_FILE}`,
  );
  const outDir = parsed.outDir ?? defaultResultsDir(parsed.reanchor ? 'reanchor' : 'trend');
  if (parsed.baselinesFrom && !existsSync(baselinesFile)) {
    const text = await readBranchFile({ repo: parsed.baselinesFrom, name: BASELINES_FILE });
    if (text !== null) writeFileAtomicSync(baselinesFile, text);
  }
  const run = await runTrend({
    repo,
    projectRoot: request.project?.root ?? perfgateRoot,
    install: request.project?.install,
    copy: request.project?.copy,
    config,
    settings: trendSettings(parsed.settings),
    baselinesFile,
    baseline: parsed.baseline,
    reanchor: parsed.reanchor,
    reanchorRounds: parsed.reanchorRounds,
    skipWithoutBaseline: parsed.skipWithoutBaseline,
    outDir,
    onProgress: (line) => console.error(line),
  });
  const benches = run.kind === 'trend' ? trendBenches(run.ratios, run.state) : null;
  const markdown = writeTrend(run, benches, outDir);
  appendSummary(markdown);
  console.log(markdown);
  console.log(`results: ${outDir}\nbaselines: ${baselinesFile}`);
  if (benches && historyFile && benches.bigger.length + benches.smaller.length) {
    // Under the project's name, beside its absolute lines (perfgate's own: "perfgate ... vs baseline").
    const suites = trendSuiteNames(request.project?.suite.name);
    appendRunToFile(historyFile, {
      commit: commitFromGit(repo),
      date: Date.now(),
      suites: [
        { suite: suites.bigger, tool: TOOLS.bigger, benches: benches.bigger },
        { suite: suites.smaller, tool: TOOLS.smaller, benches: benches.smaller },
      ],
    });
    console.log(`history: ${historyFile} (perfgate site shows it)`);
  }
  const failed = run.comparison?.benchmarks.some((benchmark) => benchmark.status === 'failed');
  return failed ? EXIT.failed : EXIT.ok;
});
