#!/usr/bin/env node
// `npm run bench`: runs a suite, prints its table and writes the run's outputs
// (result.json, github-action-benchmark inputs, table.md) plus the local history.
import { fileURLToPath } from 'node:url';
import { BENCH_COMMAND, parseBenchArgs } from '../bench/cli/bench-command.js';
import { runCommand } from '../bench/cli/run.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { EXIT } from '../bench/errors.js';
import { withProject } from '../bench/project/config.js';
import { runSuite } from '../bench/run.js';
import { appendSummary } from '../bench/github/context.js';
import { appendToHistory, defaultHistoryPath } from '../bench/history/index.js';
import { defaultResultsDir, writeOutputs } from '../bench/results/write.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

await runCommand(BENCH_COMMAND, async ({ values }) => {
  const request = parseBenchArgs(values);
  const { project, ...suiteRequest } = await withProject(request);
  const { config, variants, runtimes } = await resolveSuite(suiteRequest);
  // In a user's repository, the history and its commits are that repository's.
  const historyRoot = project?.root ?? projectRoot;
  const outDir = request.outDir ?? defaultResultsDir(config.name);
  const result = await runSuite({ config, variants, runtimes, outDir });
  const outputs = writeOutputs(result, outDir);
  appendSummary(outputs.table);
  console.log(`\n${outputs.table}`);
  console.log(`results: ${outDir}`);
  if (request.historyFile !== null && outputs.bigger.length) {
    const historyFile = request.historyFile ?? defaultHistoryPath(historyRoot);
    appendToHistory(outputs, historyFile, { commitDir: historyRoot });
    console.log(`history: ${historyFile} (perfgate site shows it)`);
  }
  // 1: a benchmark failed (its reason is in result.json and the table).
  return result.benchmarks.some((benchmark) => benchmark.status === 'failed') ? EXIT.failed : EXIT.ok;
});
