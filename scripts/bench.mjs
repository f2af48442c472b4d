#!/usr/bin/env node
// `npm run bench`: runs a suite, prints its table and writes the run's outputs
// (result.json, github-action-benchmark inputs, table.md) plus the local history.
import { fileURLToPath } from 'node:url';
import { minimist } from 'zx';
import { resolveSuite } from '../bench/config/resolve.js';
import { PerfgateError } from '../bench/errors.js';
import { withProject } from '../bench/project/config.js';
import { runSuite } from '../bench/run.js';
import { defaultHistoryPath } from '../bench/history/index.js';
import { appendToHistory, writeOutputs } from '../bench/results/write.js';
import { parseBenchArgs, BENCH_USAGE } from './lib/bench-args.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

try {
  const request = parseBenchArgs(minimist(process.argv.slice(2), { string: ['suite', 'config', 'out', 'history'], boolean: ['help'] }));
  if (request.help) {
    console.log(BENCH_USAGE);
    process.exit(0);
  }
  const { project, ...suiteRequest } = await withProject(request);
  const { config, variants } = await resolveSuite(suiteRequest);
  // In a user's repository, the history and its commits are that repository's.
  const historyRoot = project?.root ?? projectRoot;
  const outDir = request.outDir ?? `results/${new Date().toISOString().replace(/[:.]/g, '-')}-${config.name}`;
  const result = await runSuite({ config, variants, outDir });
  const outputs = writeOutputs(result, outDir);
  console.log(`\n${outputs.table}`);
  console.log(`results: ${outDir}`);
  if (request.historyFile !== null && outputs.bigger.length) {
    const historyFile = request.historyFile ?? defaultHistoryPath(historyRoot);
    appendToHistory(outputs, historyFile, { commitDir: historyRoot });
    console.log(`history: ${historyFile} (perfgate site shows it)`);
  }
  process.exitCode = result.benchmarks.some((benchmark) => benchmark.status === 'failed') ? 1 : 0;
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
}
