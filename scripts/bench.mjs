#!/usr/bin/env node
// `npm run bench`: runs a suite, prints its table and writes the run's outputs
// (result.json, github-action-benchmark inputs, table.md) plus the local history.
import { fileURLToPath } from 'node:url';
import { BENCH_COMMAND, parseBenchArgs } from '../bench/cli/bench-command.js';
import { commandLine, runCommand } from '../bench/cli/run.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { EXIT } from '../bench/core/errors.js';
import { withProject } from '../bench/project/config.js';
import { runSuite } from '../bench/measurement/run-suite.js';
import { isReference } from '../bench/measurement/specs.js';
import { appendSummary } from '../bench/github/context.js';
import { appendKneesToHistory, appendToHistory, defaultHistoryPath } from '../bench/history/index.js';
import { machineInfo } from '../bench/measurement/machine.js';
import { kneeEntries } from '../bench/results/benchmark-action.js';
import { defaultResultsDir, OUTPUT_FILES, writeKneeEntries, writeOutputs } from '../bench/results/write.js';
import { sloReport } from '../bench/results/slo.js';
import { findKnees, kneeLines, writeKnees } from '../bench/measurement/knee.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

// --find-knee: each benchmark's knee from the suite's rate (else its first rate tier), printed and written to
// <out>/knee.json, and as a "<benchmark> - knee rate" line to the history's knee group (the site's trend).
async function kneeSearch({ config, variants, outDir, limits, historyFile, historyRoot, project }) {
  const knees = await findKnees({
    config,
    variants,
    outDir,
    start: config.rate,
    limits,
    onStep: (benchmark, rate, outcome) => console.error(`${benchmark} at ${rate} req/s: ${outcome}`),
  });
  const block = `Knees:\n${kneeLines(knees)
    .map((line) => `- ${line}`)
    .join('\n')}`;
  writeKnees(outDir, config, knees);
  const entries = kneeEntries(knees, { engine: config.engine, machine: machineInfo() });
  writeKneeEntries(entries, outDir);
  appendSummary(block);
  console.log(`\n${block}\nresults: ${outDir} (knee.json, ${OUTPUT_FILES.knee})`);
  if (historyFile !== null && entries.length) {
    const file = historyFile ?? defaultHistoryPath(historyRoot);
    appendKneesToHistory(entries, file, { commitDir: historyRoot, project });
    console.log(`history: ${file} (${commandLine('site')} shows the knee over time)`);
  }
  return knees.some((knee) => knee.failed) ? EXIT.failed : EXIT.ok;
}

await runCommand(BENCH_COMMAND, async ({ values }) => {
  const request = parseBenchArgs(values);
  const { project, ...suiteRequest } = await withProject(request);
  const { config, variants, runtimes } = await resolveSuite(suiteRequest);
  // In a user's repository, the history and its commits are that repository's.
  const historyRoot = project?.root ?? projectRoot;
  const outDir = request.outDir ?? defaultResultsDir(config.name);
  if (request.knee)
    return kneeSearch({
      config,
      variants,
      outDir,
      limits: request.knee,
      historyFile: request.historyFile,
      historyRoot,
      project: project?.suite.name,
    });
  const result = await runSuite({ config, variants, runtimes, outDir });
  const slo = sloReport(result.benchmarks);
  const outputs = writeOutputs(result, outDir);
  appendSummary(outputs.table);
  console.log(`\n${outputs.table}`);
  if (slo.lines.length) {
    const block = `SLOs:\n${slo.lines.map((line) => `- ${line}`).join('\n')}`;
    appendSummary(block);
    console.log(`\n${block}`);
  }
  console.log(`results: ${outDir}`);
  if (request.historyFile !== null) {
    const historyFile = request.historyFile ?? defaultHistoryPath(historyRoot);
    // References alone are not a run of the project: they would get a second point for this commit.
    const own = result.benchmarks.filter((benchmark) => !isReference(config, benchmark));
    if (own.some((benchmark) => benchmark.status === 'ok')) {
      appendToHistory(outputs, historyFile, { commitDir: historyRoot, project: project?.suite.name });
      console.log(`history: ${historyFile} (${commandLine('site')} shows it)`);
    } else {
      console.error(
        `perfgate: history: this run is not added to ${historyFile}: every benchmark of ${project ? 'your servers' : 'the suite'} failed (the table says why); fix that and run ${commandLine('bench')} again`,
      );
    }
  }
  // 1: a benchmark failed (its reason is in result.json and the table), or an SLO broke.
  if (slo.broken && !request.sloReportOnly)
    console.error(
      `perfgate: ${slo.broken} SLO${slo.broken === 1 ? '' : 's'} broken (--slo-report-only to report without failing)`,
    );
  const failed = result.benchmarks.some((benchmark) => benchmark.status === 'failed');
  return failed || (slo.broken && !request.sloReportOnly) ? EXIT.failed : EXIT.ok;
});
