// Compares two prepared sides (bench/compare/sides.js) over a resolved suite: every
// benchmark is measured in interleaved rounds on both sides by the same harness and load
// generator, and judged per metric. Raw per-round samples are kept, so every verdict can be
// recomputed and audited (Node core's benchmark/ keeps measurement and judgement apart).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PerfgateError } from '../errors.js';
import { gitInfo, machineInfo } from '../machine.js';
import { currentPinning, pinSelf } from '../pinning.js';
import { fileSafe, measureOnce } from '../run.js';
import { failsGate, VERDICTS } from '../stats/index.js';
import { expandSpecs } from '../specs.js';
import { loadBuiltInVariant } from '../variants.js';
import { profileBenchmark } from '../profile/index.js';
import { compareInterleaved, METRICS, roundSample } from './rounds.js';
import { COMPARISON_FORMAT } from './schema.js';


// A side may carry environment for its servers (calibration injects a slowdown this way).
export async function sideVariant(name, side) {
  const variant = await loadBuiltInVariant(name, side.serversDir);
  return side.env ? { ...variant, launch: { ...variant.launch, env: { ...variant.launch.env, ...side.env } } } : variant;
}

async function sideVariants(sides, names) {
  const loaded = {};
  for (const [key, side] of Object.entries(sides)) {
    loaded[key] = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await sideVariant(name, side)])));
  }
  return loaded;
}

// 'auto' profiles a benchmark only when some metric regressed; 'always' and 'never' as they say.
const wantsProfile = (mode = 'auto', verdicts) => mode === 'always' || (mode === 'auto' && Object.values(verdicts).some((each) => each.verdict === VERDICTS.regression));

/**
 * @param {{config: object, sides: {base: object, head: object}, settings: object, outDir: string, onProgress?: Function}} comparison
 * settings: { thresholds: {'req/s': 0.05, 'p99 latency': 0.1}, failThreshold, budgetSeconds, minRounds, maxRounds }
 */
export async function runComparison({ config, sides, settings, outDir, onProgress = () => {} }) {
  const plan = currentPinning({ loadWorkers: config.workers });
  pinSelf(plan);
  const logDir = join(outDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const variants = await sideVariants(sides, config.variants);
  const backend = await loadBuiltInVariant('mock-backend');
  const specs = expandSpecs(config);
  const benchmarks = [];
  for (const [index, spec] of specs.entries()) {
    onProgress(`[${index + 1}/${specs.length}] ${spec.id}`);
    const entry = { id: spec.id, variant: spec.variant, scenario: spec.scenario, connections: spec.connections, tags: spec.tags };
    const reason = await variants.head[spec.variant].unavailable();
    if (reason) {
      benchmarks.push({ ...entry, status: 'skipped', reason });
      continue;
    }
    try {
      const measured = await compareInterleaved({
        ...settings,
        budgetMs: settings.budgetSeconds * 1000,
        measure: async (side, round) => roundSample(await measureOnce({ spec, variant: variants[side][spec.variant], backend, config, plan, logDir, repetition: `${side}${round}` })),
      });
      const saturated = [...measured.samples.base, ...measured.samples.head].some((sample) => sample.clientSaturated);
      const profile = wantsProfile(settings.profile, measured.verdicts)
        ? await profileBenchmark({ spec, variants: { base: variants.base[spec.variant], head: variants.head[spec.variant] }, roots: { base: sides.base.root, head: sides.head.root }, config, plan, outDir: join(outDir, fileSafe(spec.id)) })
        : undefined;
      benchmarks.push({
        ...entry,
        status: 'ok',
        rounds: measured.rounds,
        elapsedMs: measured.elapsedMs,
        stoppedBy: measured.stoppedBy,
        verdicts: measured.verdicts,
        samples: measured.samples,
        warnings: saturated ? ['client saturated in some rounds: numbers are a lower bound'] : [],
        ...(profile ? { profile } : {}),
      });
    } catch (error) {
      if (!(error instanceof PerfgateError)) throw error;
      benchmarks.push({ ...entry, status: 'failed', code: error.code, reason: error.message });
    }
  }
  const regressions = benchmarks.filter((benchmark) => benchmark.status === 'ok' && failsGate(benchmark.verdicts['req/s'], settings.failThreshold));
  return {
    ...COMPARISON_FORMAT,
    suite: config.name,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    harness: gitInfo(),
    pinning: plan,
    sides: Object.fromEntries(Object.entries(sides).map(([key, side]) => [key, { description: side.description, ref: side.ref, sha: side.sha, spec: side.spec }])),
    settings: { ...settings, roundSeconds: config.duration, warmupSeconds: config.warmup, server: config.server, metrics: Object.keys(METRICS) },
    benchmarks,
    gate: { metric: 'req/s', failThreshold: settings.failThreshold, failed: regressions.length > 0, regressions: regressions.map((benchmark) => benchmark.id) },
  };
}
