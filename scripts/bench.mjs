#!/usr/bin/env node
// `npm run bench`: runs a suite, prints its table and writes the run's outputs
// (result.json, github-action-benchmark inputs, table.md) plus the local history.
import { minimist } from 'zx';
import { resolveSuite } from '../bench/config/resolve.js';
import { PerfgateError } from '../bench/errors.js';
import { runSuite } from '../bench/run.js';
import { writeOutputs } from '../bench/results/write.js';
import { parseBenchArgs, BENCH_USAGE } from './lib/bench-args.js';

try {
  const request = parseBenchArgs(minimist(process.argv.slice(2), { string: ['suite', 'config', 'out', 'history'], boolean: ['help'] }));
  if (request.help) {
    console.log(BENCH_USAGE);
    process.exit(0);
  }
  const { config, variants } = await resolveSuite(request);
  const outDir = request.outDir ?? `results/${new Date().toISOString().replace(/[:.]/g, '-')}-${config.name}`;
  const result = await runSuite({ config, variants, outDir });
  const { table } = writeOutputs(result, outDir);
  console.log(`\n${table}`);
  console.log(`results: ${outDir}`);
  process.exitCode = result.benchmarks.some((benchmark) => benchmark.status === 'failed') ? 1 : 0;
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
}
