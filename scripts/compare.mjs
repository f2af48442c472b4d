#!/usr/bin/env node
// `npm run compare`: base vs head, interleaved, with a verdict per benchmark and metric.
//   npm run compare -- --base main --head HEAD              two commits of this repository
//   npm run compare -- --dep express@4.21.2 --vs express@5.1.0   two versions of a package
//   npm run compare -- --runtime node@22 --vs-runtime node@24     the same code on two runtimes
//   npm run compare -- --override body-parser@2.2.0               a dependency changed anywhere in the tree
// Writes comparison.json and comparison.md, prints the report, appends it to
// $GITHUB_STEP_SUMMARY, and exits 1 on a regression beyond --fail-threshold or a benchmark the head
// failed, 2 when a benchmark could not be compared (the base failed too).
import { fileURLToPath } from 'node:url';
import { COMPARE_COMMAND, parseCompareArgs } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { errors } from '../bench/core/errors.js';
import {
  prepareSides,
  resolveComparedSuite,
  resolveSideOverrides,
  resolveSideRuntimes,
  runsCodeUnderTest,
} from '../bench/comparison/plan.js';
import { sideLockfiles } from '../bench/comparison/overrides.js';
import { measureComparison } from '../bench/comparison/run-comparison.js';
import { gateExitCode } from '../bench/comparison/gate.js';
import { sandboxDecision } from '../bench/measurement/sandbox/bubblewrap.js';
import { checkSandboxReach, createWorkRoot } from '../bench/comparison/sides.js';
import { writeComparison } from '../bench/comparison/write.js';
import { appendSummary, setOutputs } from '../bench/github/context.js';
import { benchmarkSettings, withProject } from '../bench/project/config.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { bandProblems } from '../bench/results/metrics.js';
import { defaultResultsDir } from '../bench/results/write.js';

const perfgateRoot = fileURLToPath(new URL('..', import.meta.url));

await runCommand(COMPARE_COMMAND, async ({ values }) => {
  const parsed = parseCompareArgs(values);
  const found = await withProject(parsed, parsed.repo);
  const request = { ...found, dependencyOverrides: resolveSideOverrides(found) };
  const { config } = await resolveComparedSuite(request);
  const settings = {
    ...request.settings,
    benchmarks: benchmarkSettings(request.project?.config.thresholds, expandSpecs(config), request.settings),
  };
  // A project's band with the command line's (e.g. its threshold under --no-change-margin) must still make one.
  const unusable = Object.entries(settings.benchmarks).flatMap(([id, own]) =>
    bandProblems(own.thresholds, 'config').map((problem) => `${id}, with the command line's bands: ${problem}`),
  );
  if (unusable.length) throw errors.badConfig(request.project.configFile, unusable);
  // What the sandbox needs of this machine is checked before a runtime is fetched or a side made.
  const sandbox = runsCodeUnderTest(request) ? sandboxDecision() : { sandboxed: false };
  if (sandbox.note) console.error(sandbox.note);
  if (sandbox.sandboxed) checkSandboxReach(request.project?.root ?? perfgateRoot, request.dependencyOverrides);
  const runtimes = await resolveSideRuntimes(request);
  const work = createWorkRoot();
  try {
    // A side whose lockfile differs from the working tree's is installed: minutes of silence otherwise.
    console.error('preparing the sides (each checked out and installed unless it reuses your node_modules)');
    const sides = prepareSides(request, work, perfgateRoot, runtimes, {
      ...sandbox,
      onProgress: (line) => console.error(line),
    });
    for (const side of Object.values(sides)) console.error(`${side.label}: ${side.description}`);
    const lockfiles = sideLockfiles(sides);
    const outDir = request.outDir ?? defaultResultsDir('compare');
    const measured = await measureComparison({
      config,
      sides,
      settings,
      outDir,
      onProgress: (line) => console.error(line),
    });
    const comparison = lockfiles ? { ...measured, dependencyChanges: lockfiles.changes } : measured;
    const markdown = writeComparison(comparison, outDir, lockfiles);
    appendSummary(markdown);
    setOutputs({
      regression: comparison.gate.regressions.length > 0,
      'small-regressions': comparison.gate.smallRegressions.length,
      'failed-on-head': comparison.gate.failedOnHead.length,
      'not-compared': comparison.gate.notCompared.length,
      'report-dir': outDir,
    });
    console.log(markdown);
    console.log(`results: ${outDir}`);
    return gateExitCode(comparison.gate);
  } finally {
    work.remove();
  }
});
