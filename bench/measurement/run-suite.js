// Runs a resolved suite: for every benchmark, one measurement (bench/measurement/measure.js: start the
// server, verify its answer, warm up, measure, stop); repetitions go round-robin over all
// benchmarks so that a slow phase of a noisy machine does not fall on one benchmark only. The result file is rewritten
// after every benchmark, so an interrupted run still leaves a valid file.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { measurementSettings, openMeasurement } from './context.js';
import { enginePackages } from './engines/seam.js';
import { errors, PerfgateError } from '../core/errors.js';
import { packageVersions } from './machine.js';
import { onInterrupt } from './process/children.js';
import { measureOnce } from './measure.js';
import { createProgress } from '../core/progress.js';
import { summarizeRuns } from '../results/record.js';
import { judgeSuiteSlo } from '../results/slo.js';
import { runtimeRecord, SYSTEM, SYSTEM_RUNTIME } from './runtime/resolve.js';
import { expandSpecs, isReference } from './specs.js';
import { skipReason } from './variants.js';

const RESULT_FORMAT = { format: 'perfgate-result', version: 1 };
const STARTUP_ALLOWANCE_SECONDS = 1;

function newResult({ config, variants, runtimes, measurement }) {
  // A variant on several runtimes is one variant per runtime: its packages once.
  const packages = [...enginePackages(measurement.engine), ...variants.flatMap((variant) => variant.packages)].filter(
    (name, index, all) => all.indexOf(name) === index,
  );
  return {
    ...RESULT_FORMAT,
    suite: config.name,
    status: 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: measurement.machine,
    git: measurement.git,
    packages: packageVersions(packages),
    pinning: measurement.plan,
    // The servers' runtimes, each as asked for and as installed (the harness's own is machine.node).
    runtimes,
    config,
    // A reference (a built-in beside a project's servers) is marked, so its lines are told apart.
    benchmarks: expandSpecs(config).map((spec) => ({
      ...spec,
      ...(isReference(config, spec) ? { reference: true } : {}),
      status: 'pending',
      runs: [],
    })),
  };
}

// A benchmark's variant: the one placed on its runtime (bench/measurement/runtime/variant.js). A variant
// of its own runtime (express-bun) runs there on the default one: recorded so, its name unchanged.
export const variantForSpec = (variants, spec) =>
  variants.find(
    (variant) =>
      variant.name === spec.variant && (variant.slot ?? variant.runtime ?? SYSTEM) === (spec.runtime ?? SYSTEM),
  );

/**
 * @param {{config: object, variants: object[], runtimes?: object[], outDir: string}} suite
 *   variants: one per runtime (bench/config/resolve.js); runtimes: the resolved runtimes
 * @returns {Promise<object>} the result (also written to <outDir>/result.json)
 */
export async function runSuite({ config, variants, runtimes = [SYSTEM_RUNTIME], outDir }) {
  const measurement = await openMeasurement({ config, outDir });
  const result = newResult({ config, variants, runtimes: runtimes.map(runtimeRecord), measurement });
  const resultFile = join(outDir, 'result.json');
  const save = () => writeFileAtomicSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  onInterrupt((signal) => {
    result.status = 'interrupted';
    result.finishedAt = new Date().toISOString();
    for (const benchmark of result.benchmarks) {
      if (benchmark.status === 'pending' && benchmark.runs.length) benchmark.summary = summarizeRuns(benchmark.runs);
    }
    save();
    console.error(errors.interrupted(signal).message);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
  save();

  const variantFor = new Map(result.benchmarks.map((benchmark) => [benchmark, variantForSpec(variants, benchmark)]));
  const variantOf = (benchmark) => variantFor.get(benchmark);
  const settingsFor = new Map(
    result.benchmarks.map((benchmark) => [benchmark, measurementSettings(config, benchmark)]),
  );
  for (const [benchmark, variant] of variantFor)
    if (variant.runtime && variant.runtime !== (benchmark.runtime ?? SYSTEM)) benchmark.runtime = variant.runtime;
  save();
  for (const variant of variants) {
    const reason = variant.unavailable;
    if (!reason) continue;
    const onRuntime = variant.runtime && variant.runtime !== SYSTEM ? ` on ${variant.runtime}` : '';
    const skipped = errors.variantUnavailable(`${variant.name}${onRuntime}`, reason);
    console.error(skipped.message);
    for (const benchmark of result.benchmarks.filter((each) => variantOf(each) === variant)) {
      Object.assign(benchmark, { status: 'skipped', code: skipped.code, reason });
    }
  }
  for (const benchmark of result.benchmarks.filter((each) => each.status === 'pending')) {
    const reason = skipReason(variantOf(benchmark), benchmark);
    if (!reason) continue;
    const skipped = errors.variantUnavailable(benchmark.id, reason);
    console.error(skipped.message);
    Object.assign(benchmark, { status: 'skipped', code: skipped.code, reason });
  }
  const progress = createProgress({
    total: result.benchmarks.length * config.repetitions,
    secondsPerStep: config.warmup + config.duration + STARTUP_ALLOWANCE_SECONDS,
  });
  for (let repetition = 1; repetition <= config.repetitions; repetition++) {
    for (const benchmark of result.benchmarks) {
      const runLabel = config.repetitions > 1 ? ` run ${repetition}/${config.repetitions}` : '';
      progress.start(`${benchmark.id}${runLabel}`);
      if (benchmark.status !== 'pending') {
        progress.finish();
        continue;
      }
      try {
        benchmark.runs.push(
          await measureOnce({
            spec: benchmark,
            variant: variantOf(benchmark),
            measurement,
            settings: settingsFor.get(benchmark),
            repetition,
          }),
        );
        progress.finish();
      } catch (error) {
        if (!(error instanceof PerfgateError)) throw error;
        Object.assign(benchmark, { status: 'failed', code: error.code, reason: error.message });
        progress.finish(`${benchmark.id}: ${error.message}`);
      }
      save();
    }
  }
  progress.end();
  for (const benchmark of result.benchmarks) {
    if (benchmark.status === 'pending')
      Object.assign(benchmark, { status: 'ok', summary: summarizeRuns(benchmark.runs) });
  }
  judgeSuiteSlo(config, result);
  result.status = 'complete';
  result.finishedAt = new Date().toISOString();
  save();
  return result;
}
