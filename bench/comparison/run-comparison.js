// Compares two prepared sides (bench/comparison/sides.js) over a resolved suite: every
// benchmark is measured in rounds on both sides by the same harness and load engine, and
// judged per metric. Duet mode (the default) measures both sides at the same time on the
// same cores, so machine noise hits both; sequential mode one after the other, and is the
// fallback, with its reason, for a benchmark that cannot run twice at once. Raw per-round
// samples are kept, so every verdict can be recomputed and audited (Node core's benchmark/ keeps measurement and judgement apart).
import { join } from 'node:path';
import { PerfgateError } from '../core/errors.js';
import { measurementSettings, openMeasurement } from '../measurement/context.js';
import { fileSafe, measureOnce, measureTogether } from '../measurement/measure.js';
import { JUDGED_METRICS } from '../results/metrics.js';
import { isSlower, VERDICTS } from '../stats/index.js';
import { expandSpecs, isReference } from '../measurement/specs.js';
import { isOpen, loadFields, loadPointOf } from '../../site/shared/load-point.js';
import { skipReason } from '../measurement/variants.js';
import { runtimeRecord } from '../measurement/runtime/resolve.js';
import { profileRun } from './profile/profile-benchmark.js';
import { measureAlone, wantsAlone } from './alone.js';
import { measureConfirmed } from './confirm.js';
import { failedSides, judgeGate, referenceDifference, runtimesDiffer } from './gate.js';
import { clientBoundNoteAt, compareInterleaved, roundSample, sequentialRound } from './rounds.js';
import { COMPARISON_FORMAT } from './schema.js';
import { loadSideVariants, missingFileHint } from './sides.js';
import { leakBreaks, withLeakGate } from './leak-gate.js';
import { sloBreaks, withSloGate } from './slo-gate.js';
import { takeMisbehaviour } from '../measurement/sandbox/conduct.js';
import { limitsNote } from '../measurement/sandbox/cgroup.js';
import { watchResults } from '../measurement/sandbox/bubblewrap.js';
import { fenceSides } from '../measurement/sandbox/side-networks.js';
import { runInPrivateNetwork } from '../measurement/sandbox/private-network.js';

export const MODES = ['duet', 'sequential'];

// Why a benchmark cannot be measured in duet mode, or null when it can.
function duetUnavailable(variant, spec) {
  if (variant.launch.port)
    return `${variant.name} listens on the fixed port ${variant.launch.port}, so its two sides cannot run at once`;
  if (spec.scenario === 'db')
    return 'the db scenario starts a PostgreSQL server per side, and two would share the server cores with the servers measured';
  return null;
}

// The mode a benchmark is measured in: the one asked for, or sequential with the reason.
export function benchmarkMode(asked, spec, variants) {
  const reason =
    asked === 'duet' ? (duetUnavailable(variants.base, spec) ?? duetUnavailable(variants.head, spec)) : null;
  return reason ? { mode: 'sequential', fallback: `sequential, not duet: ${reason}` } : { mode: asked };
}

// The round of one benchmark: both sides together (duet), or one after the other.
function roundMeasurer({ mode, spec, variants, measurement, measuring, attempt = 1 }) {
  const prefix = attempt > 1 ? 'confirm-' : '';
  if (mode === 'duet') {
    return async (round, order) => {
      const records = await measureTogether({
        sides: order.map((key) => ({ key, spec, variant: variants[key][spec.variant] })),
        measurement,
        settings: measuring,
        label: `${prefix}round${round}`,
      });
      return Object.fromEntries(order.map((key, index) => [key, roundSample(records[index])]));
    };
  }
  return sequentialRound(async (side, round) =>
    roundSample(
      await measureOnce({
        spec,
        variant: variants[side][spec.variant],
        measurement,
        settings: measuring,
        repetition: `${prefix}${side}${round}`,
        side,
      }),
    ),
  );
}

async function sideVariants(sides, config) {
  const names = [...new Set([...config.variants, ...(config.reference?.variants ?? [])])];
  const loaded = {};
  for (const [key, side] of Object.entries(sides)) loaded[key] = await loadSideVariants(side, names, config.commands);
  return loaded;
}

// Why a benchmark is not measured: a side cannot run its variant (on two runtimes, either may
// not: a native addon of another ABI), or a side's variant does not serve its proxyClient.
function skippedBecause(variants, spec) {
  for (const key of ['head', 'base']) {
    const variant = variants[key][spec.variant];
    const reason = variant.unavailable ?? skipReason(variant, spec);
    if (reason)
      return variant.runtime && variants.base[spec.variant].runtime !== variants.head[spec.variant].runtime
        ? `${key} (${variant.runtime}): ${reason}`
        : reason;
  }
  return null;
}

// A reference variant (a project's built-in beside its servers) never fails the gate; when it runs
// the same code on both sides, its move says the machine was not steady, else what differs is said.
function referenceEntry(variants, spec) {
  const differs = referenceDifference(variants.base[spec.variant], variants.head[spec.variant]);
  return { reference: true, ...(differs ? { referenceDiffers: differs } : {}) };
}

// A benchmark's own verdict bands and gate, where a project's thresholds give them.
const settingsOf = (settings, spec) => ({ ...settings, ...settings.benchmarks?.[spec.id] });

// 'auto' profiles a benchmark only when it is slower (a regression, or a small one: what grew is what a
// reviewer wants to see) or some metric regressed; 'always' and 'never' as they say.
const wantsProfile = (mode = 'auto', { verdict, verdicts }) =>
  mode === 'always' ||
  (mode === 'auto' &&
    (isSlower(verdict.verdict) || Object.values(verdicts).some((each) => each.verdict === VERDICTS.regression)));

// 'auto' takes the allocation profile only where allocation per request regressed or called the benchmark
// slower, and not where profiles are off (--no-profile, and the comparisons calibrate, bisect and trend run),
// nor when the sides run on two runtimes: another JIT allocates differently, so that change is not judged.
const ALLOCATION = 'heap bytes/request';
const wantsAllocationProfile = ({ allocProfile = 'auto', profile }, { verdict, verdicts }, runtimesDiffer) =>
  allocProfile === 'always' ||
  (allocProfile === 'auto' &&
    profile !== 'never' &&
    !runtimesDiffer &&
    (verdicts[ALLOCATION]?.verdict === VERDICTS.regression ||
      (verdict.calledBy === ALLOCATION && isSlower(verdict.verdict))));

// The profiles one more run of both sides takes (both at once when both are wanted).
export const profileKinds = (settings, measured, runtimesDiffer = false) => [
  ...(wantsProfile(settings.profile, measured) ? ['cpu'] : []),
  ...(wantsAllocationProfile(settings, measured, runtimesDiffer) ? ['allocation'] : []),
];

/**
 * The comparison, in a measurement context opened for it (bench/measurement/context.js): plain data in and out,
 * so that it can run in a private network namespace (measureComparison).
 * @param {{config: object, sides: {base: object, head: object}, settings: object, outDir: string, onProgress?: Function, select?: Function}} comparison
 * settings: { thresholds: {'req/s': 0.05, 'p99 latency': 0.1}, failThreshold, budgetSeconds, minRounds, maxRounds }
 * select: which benchmarks (specs) of the suite to measure; all by default (the relative trend picks some)
 */
export async function runComparison(comparison) {
  return compareSides(await openMeasurement(comparison), comparison);
}

/**
 * The comparison in a measurement context the caller opened (calibrate's neighbour goes on its server cores);
 * the rest as runComparison.
 */
export async function compareSides(
  measurement,
  { config, sides, settings, outDir, onProgress = () => {}, select = () => true },
) {
  // A hostile side's writes aimed at the results land in a decoy and are reported (bench/measurement/sandbox/view.js).
  // Each sandboxed side on a network of its own: it reaches its own servers only (side-networks.js).
  const fence = fenceSides(sides);
  const variants = await sideVariants(watchResults(fence.sides, outDir), config);
  const specs = expandSpecs(config).filter(select);
  const benchmarks = [];
  for (const [index, spec] of specs.entries()) {
    onProgress(`[${index + 1}/${specs.length}] ${spec.id}`);
    const entry = {
      id: spec.id,
      variant: spec.variant,
      scenario: spec.scenario,
      ...loadFields(loadPointOf(spec)),
      tags: spec.tags,
      ...(isReference(config, spec) ? referenceEntry(variants, spec) : {}),
    };
    const reason = skippedBecause(variants, spec);
    if (reason) {
      benchmarks.push({ ...entry, status: 'skipped', reason });
      continue;
    }
    const { mode, fallback } = benchmarkMode(settings.mode, spec, {
      base: variants.base[spec.variant],
      head: variants.head[spec.variant],
    });
    const measuring = measurementSettings(config, spec);
    const twoRuntimes = runtimesDiffer(variants.base[spec.variant], variants.head[spec.variant]);
    try {
      const measured = await measureConfirmed(
        (attempt, judging) =>
          compareInterleaved({
            ...settingsOf(settings, spec),
            ...judging,
            load: measuring.load,
            runtimesDiffer: twoRuntimes,
            budgetMs: settings.budgetSeconds * 1000,
            // The confirming run's logs beside the first run's, not over them.
            measureRound: roundMeasurer({ mode, spec, variants, measurement, measuring, attempt }),
          }),
        {
          confirm: settings.confirm !== false,
          onConfirm: (first) => onProgress(`  ${first.verdict.verdict}: measuring it again to confirm`),
        },
      );
      const saturated = [...measured.samples.base, ...measured.samples.head].some((sample) => sample.clientSaturated);
      const kinds = profileKinds(settings, measured, twoRuntimes);
      const profiles = kinds.length
        ? await profileRun(
            {
              spec,
              variants: { base: variants.base[spec.variant], head: variants.head[spec.variant] },
              roots: { base: sides.base.root, head: sides.head.root },
              measurement,
              settings: measuring,
              outDir: join(outDir, fileSafe(spec.id)),
            },
            kinds,
          )
        : {};
      const alone = wantsAlone(settings.alone, mode, measured)
        ? await measureAlone(
            {
              spec,
              variants: { base: variants.base[spec.variant], head: variants.head[spec.variant] },
              measurement,
              settings: measuring,
            },
            measured.samples,
          )
        : undefined;
      benchmarks.push({
        ...entry,
        status: 'ok',
        mode,
        ...(fallback ? { fallback } : {}),
        verdict: measured.verdict,
        rounds: measured.rounds,
        elapsedMs: measured.elapsedMs,
        stoppedBy: measured.stoppedBy,
        verdicts: measured.verdicts,
        samples: measured.samples,
        ...(measured.confirmation ? { confirmation: measured.confirmation } : {}),
        warnings: [
          ...(fallback ? [fallback] : []),
          ...(saturated
            ? [
                isOpen(measuring.load)
                  ? `client behind its schedule or saturated in some rounds (${clientBoundNoteAt(measuring.load)})`
                  : 'client saturated in some rounds: req/s is a client-bound lower bound; the verdict rests on CPU µs/request',
              ]
            : []),
        ],
        ...profiles,
        ...(alone ? { alone } : {}),
      });
    } catch (error) {
      if (!(error instanceof PerfgateError)) throw error;
      const hint = missingFileHint(error, Object.values(sides));
      benchmarks.push({
        ...entry,
        status: 'failed',
        code: error.code,
        failedSides: failedSides(error),
        reason: [error.message, hint].filter(Boolean).join('\n'),
      });
    }
  }
  return {
    ...COMPARISON_FORMAT,
    suite: config.name,
    finishedAt: new Date().toISOString(),
    machine: measurement.machine,
    harness: measurement.git,
    pinning: measurement.plan,
    sides: Object.fromEntries(
      Object.entries(sides).map(([key, side]) => [
        key,
        {
          description: side.description,
          ref: side.ref,
          sha: side.sha,
          spec: side.spec,
          ...(side.runtime ? { runtime: runtimeRecord(side.runtime) } : {}),
          sandbox: side.sandbox
            ? {
                sandboxed: true,
                network: fence.network(key),
                limits: limitsNote(),
                misbehaviour: [...takeMisbehaviour(side.sandbox.side), ...fence.refusals(key)],
              }
            : { sandboxed: false },
        },
      ]),
    ),
    settings: {
      ...settings,
      engine: measurement.engine,
      roundSeconds: config.duration,
      warmupSeconds: config.warmup,
      server: measurement.serverSettings,
      metrics: JUDGED_METRICS.map((metric) => metric.name),
    },
    benchmarks,
    gate: withLeakGate(
      withSloGate(
        judgeGate(benchmarks, {
          failThreshold: settings.failThreshold,
          failThresholdOf: (benchmark) => settingsOf(settings, benchmark).failThreshold,
        }),
        sloBreaks(benchmarks, config),
      ),
      leakBreaks(benchmarks, settings.leakThreshold),
      settings.leakThreshold,
    ),
  };
}

/**
 * runComparison, in the private network namespace of bench/measurement/sandbox/private-network.js when a
 * side is sandboxed (its servers then reach nothing but loopback). Whatever is still running
 * there when it ends is killed and reported in each sandboxed side's misbehaviour.
 */
export async function measureComparison({ onProgress, ...comparison }) {
  if (!Object.values(comparison.sides).some((side) => side.sandbox))
    return runComparison({ ...comparison, onProgress });
  const { result, leftBehind } = await runInPrivateNetwork(import.meta.url, 'runComparison', comparison);
  if (leftBehind.length) {
    const what = `processes still running after the measurement (killed): ${leftBehind.map((each) => each.command).join('; ')}`;
    for (const side of Object.values(result.sides)) if (side.sandbox.sandboxed) side.sandbox.misbehaviour.push(what);
  }
  return result;
}
