// The check's gate: what fails it, what leaves it undecided, and its exit code. A benchmark fails
// the gate when the head regressed beyond the fail threshold in the metric that called its
// verdict, or when the head's server failed where the base's did not (crashed, answered wrongly,
// never became ready): a check that could not measure the head must not pass. When the base failed
// too, or the failure names no side (the harness's), the benchmark could not be compared.
// A reference variant never fails the gate; it is reported.
import { EXIT } from '../core/errors.js';
import { SYSTEM } from '../measurement/runtime/spec.js';
import { failsGate, isFullChange, isSlower, VERDICTS } from '../stats/index.js';

// The sides whose servers failed a benchmark (error.sides, bench/measurement/measure.js), kept in its record.
export const failedSides = (error) => (error.sides ?? []).filter((side) => side === 'base' || side === 'head');

const failedOnHeadOnly = (benchmark) => benchmark.failedSides?.length === 1 && benchmark.failedSides[0] === 'head';

// Why a failed benchmark could not be compared, in words.
export function notComparedBecause(benchmark) {
  const sides = benchmark.failedSides ?? [];
  if (sides.length === 2) return 'both sides failed';
  if (sides[0] === 'base') return 'the base failed';
  return 'the measurement failed on neither side alone';
}

// What makes a reference variant's two sides differ, or null when it runs the same code on both
// (then, and only then, its move says the machine was not steady).
const runtimeName = (spec = SYSTEM) => (spec === SYSTEM ? "the system's Node.js" : spec);

/** Whether two sides' variants run on different runtimes (a runtime comparison). */
export const runtimesDiffer = (base, head) => runtimeName(base.runtime) !== runtimeName(head.runtime);

export function referenceDifference(base, head) {
  if (runtimesDiffer(base, head)) return `it runs on ${runtimeName(base.runtime)} vs ${runtimeName(head.runtime)}`;
  if (JSON.stringify(base.launch.command) !== JSON.stringify(head.launch.command))
    return 'each side runs it from its own tree, whose code or packages differ';
  if (JSON.stringify(base.launch.env ?? {}) !== JSON.stringify(head.launch.env ?? {}))
    return 'its environment differs between the sides';
  return null;
}

/**
 * The gate of a comparison's benchmarks (run-comparison.js's records).
 * @param {object[]} benchmarks
 * @param {{failThreshold: number, failThresholdOf: (benchmark: object) => number}} settings
 *   failThresholdOf: a benchmark's own threshold where a project's thresholds give one
 */
export function judgeGate(benchmarks, { failThreshold, failThresholdOf }) {
  const own = benchmarks.filter((benchmark) => !benchmark.reference);
  const judged = own.filter((benchmark) => benchmark.status === 'ok');
  const failed = own.filter((benchmark) => benchmark.status === 'failed');
  const regressions = judged.filter(
    (benchmark) =>
      isSlower(benchmark.verdict.verdict) &&
      failsGate(benchmark.verdicts[benchmark.verdict.calledBy], failThresholdOf(benchmark)),
  );
  const failedOnHead = failed.filter(failedOnHeadOnly);
  const references = benchmarks.filter((benchmark) => benchmark.reference);
  const ids = (list) => list.map((benchmark) => benchmark.id);
  return {
    metric: 'the metric that called the verdict',
    failThreshold,
    failed: regressions.length > 0 || failedOnHead.length > 0,
    regressions: ids(regressions),
    // Small but certain slowdowns pass the gate; they are listed so that a trend of them is seen.
    smallRegressions: ids(judged.filter((benchmark) => benchmark.verdict.verdict === VERDICTS.smallRegression)),
    failedOnHead: ids(failedOnHead),
    notCompared: ids(failed.filter((benchmark) => !failedOnHeadOnly(benchmark))),
    // Only a reference that runs the same code on both sides says the machine moved.
    referencesMoved: ids(
      references.filter(
        (benchmark) =>
          benchmark.status === 'ok' && !benchmark.referenceDiffers && isFullChange(benchmark.verdict.verdict),
      ),
    ),
    referencesFailed: ids(references.filter((benchmark) => benchmark.status === 'failed')),
  };
}

// The exit code of a gate: 1 when the head regressed or failed; else 2 when a benchmark could not
// be compared (the check could not run: exit 2, as every run that could not check); else 0.
export function gateExitCode(gate) {
  if (gate.failed) return EXIT.failed;
  return gate.notCompared?.length ? EXIT.badInput : EXIT.ok;
}
