#!/usr/bin/env node
// `npm run compare`: base vs head, interleaved, with a verdict per benchmark and metric.
//   npm run compare -- --base main --head HEAD              two commits of this repository
//   npm run compare -- --dep express@4.21.2 --vs express@5.1.0   two versions of a package
// Writes comparison.json and comparison.md, prints the report, appends it to
// $GITHUB_STEP_SUMMARY, and exits 1 only on a regression beyond --fail-threshold.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../bench/atomic-file.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { COMPARE_COMMAND, parseCompareArgs } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { errors, EXIT } from '../bench/errors.js';
import { comparisonMarkdown } from '../bench/compare/report.js';
import { runComparison } from '../bench/compare/run-comparison.js';
import { checkGitSides, createWorkRoot, parsePackageSpec, prepareDependencySide, prepareGitSide } from '../bench/compare/sides.js';
import { benchmarkSettings, withProject } from '../bench/project/config.js';
import { expandSpecs } from '../bench/specs.js';
import { builtInVariantNames, loadVariants } from '../bench/variants.js';

const perfgateRoot = fileURLToPath(new URL('..', import.meta.url));

// In a user's repository (a perfgate.config), the sides are made from it and installed its way.
function prepareSides(request, work) {
  const projectRoot = request.project?.root ?? perfgateRoot;
  if (request.dep) {
    if (parsePackageSpec(request.dep).name !== parsePackageSpec(request.vs).name) throw errors.badDependencyPair(request.dep, request.vs);
    return {
      base: prepareDependencySide({ spec: request.dep, label: 'base', work, projectRoot }),
      head: prepareDependencySide({ spec: request.vs, label: 'head', work, projectRoot }),
    };
  }
  const repo = request.project?.root ?? request.repo;
  const shas = checkGitSides(repo, request.base, request.head);
  const install = request.project?.install;
  return {
    base: prepareGitSide({ repo, sha: shas.base, ref: request.base, label: 'base', work, projectRoot, install }),
    head: prepareGitSide({ repo, sha: shas.head, ref: request.head, label: 'head', work, projectRoot, install }),
  };
}

// A package comparison measures only the variants that use the package, unless told otherwise.
function affectedVariants(variants, packageName) {
  const affected = variants.filter((variant) => variant.packages.includes(packageName) && variant.role !== 'backend');
  if (!affected.length) throw errors.noAffectedVariant(packageName, variants.map((variant) => `${variant.name} (${variant.packages.join(', ') || 'none'})`).join('; '));
  return affected.map((variant) => variant.name);
}

// A project's comparison of a package measures its own servers (any of them may use it).
async function resolveComparedSuite(request) {
  if (!request.dep || request.overrides.variants || request.project) return resolveSuite(request);
  const variants = affectedVariants(await loadVariants(builtInVariantNames(), {}), parsePackageSpec(request.dep).name);
  return resolveSuite({ ...request, overrides: { ...request.overrides, variants } });
}

await runCommand(COMPARE_COMMAND, async ({ values }) => {
  const parsed = parseCompareArgs(values);
  const request = await withProject(parsed, parsed.repo);
  const { config } = await resolveComparedSuite(request);
  const settings = { ...request.settings, benchmarks: benchmarkSettings(request.project?.config.thresholds, expandSpecs(config), request.settings) };
  const work = createWorkRoot();
  try {
    const sides = prepareSides(request, work);
    const outDir = request.outDir ?? `results/${new Date().toISOString().replace(/[:.]/g, '-')}-compare`;
    const comparison = await runComparison({ config, sides, settings, outDir, onProgress: (line) => console.error(line) });
    const markdown = comparisonMarkdown(comparison, { linkFrom: outDir });
    writeFileAtomicSync(join(outDir, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
    writeFileAtomicSync(join(outDir, 'comparison.md'), markdown);
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
    if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `regression=${comparison.gate.failed}\nreport-dir=${outDir}\n`);
    console.log(markdown);
    console.log(`results: ${outDir}`);
    return comparison.gate.failed ? EXIT.failed : EXIT.ok;
  } finally {
    work.remove();
  }
});
