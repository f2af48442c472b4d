// One step of the relative trend: the measured commit (HEAD of the repository) against the
// pinned baseline, in compare's duet rounds (bench/comparison: same sides, same statistics), giving
// per benchmark and judged metric the ratio head / baseline with its interval; or, with
// `reanchor`, the newly selected baseline against the pinned one, once, stored as a link so the
// trend lines chain across baselines. The baselines file (anchors.js) pins the baseline the
// first time and changes only here.
import { runComparison } from '../run-comparison.js';
import { checkGitSides, createWorkRoot, prepareGitSide, resolveCommit } from '../sides.js';
import { errors, PerfgateError } from '../../core/errors.js';
import { JUDGED_METRICS, defaultBands, measuredIn } from '../../results/metrics.js';
import { keyMatches } from '../../project/config.js';
import { expandSpecs } from '../../measurement/specs.js';
import { COMPARE_DEFAULTS } from '../../stats/index.js';
import { addAnchor, currentAnchor, pinFirst, readBaselines, writeBaselines } from './anchors.js';
import { DEFAULT_BASELINE, selectBaseline } from './baseline.js';
import { directRatios, relativeName } from './ratios.js';

// A fixed number of rounds per benchmark, so that every point of a line has an interval of the
// same kind; the paired interval (compare's default) needs at least 6. A re-anchor link is
// measured once and its interval is carried into every later point of its lines (chainRatios),
// so it gets twice a point's rounds by default: its interval is then about 1/√2 of a point's, and
// after one re-anchor a point's chained interval is about 1.22× its own instead of 1.41×.
export const TREND_DEFAULTS = Object.freeze({ rounds: 8, reanchorFactor: 2 });
export const defaultReanchorRounds = (rounds = TREND_DEFAULTS.rounds) => TREND_DEFAULTS.reanchorFactor * rounds;

// compare's settings for a trend duet: no verdict is wanted, only the interval after `rounds`.
export const trendSettings = ({ rounds = TREND_DEFAULTS.rounds, mode = 'duet', budgetSeconds } = {}) => ({
  thresholds: defaultBands(),
  mode,
  interval: COMPARE_DEFAULTS.interval,
  failThreshold: COMPARE_DEFAULTS.failThreshold,
  budgetSeconds: budgetSeconds ?? COMPARE_DEFAULTS.budgetSeconds,
  minRounds: rounds,
  maxRounds: rounds,
  profile: 'never',
  // A point is the interval of its fixed rounds, never re-measured: confirming a slowdown is for verdicts.
  confirm: false,
});

// A link's settings: a point's, with `rounds` rounds and a budget grown in proportion (a
// benchmark that runs out of budget gets no link).
export function linkSettings(settings, rounds = defaultReanchorRounds(settings.maxRounds)) {
  const growth = Math.max(1, rounds / settings.maxRounds);
  return {
    ...settings,
    minRounds: rounds,
    maxRounds: rounds,
    budgetSeconds: Math.ceil(settings.budgetSeconds * growth),
  };
}

// Which benchmarks of the suite get a relative line: `trend.benchmarks` (ids, "variant
// scenario" or scenarios), or all. A key that names none is an error, as a typo would be.
export function trendSelection(config) {
  const keys = config.trend?.benchmarks;
  if (!keys) return () => true;
  const specs = expandSpecs(config);
  const unknown = keys.filter((key) => !specs.some((spec) => keyMatches(key, spec)));
  if (unknown.length)
    throw errors.badConfig(
      'trend.benchmarks',
      unknown.map(
        (key) =>
          `"${key}" names no benchmark of the suite (use "<variant> <scenario> c=<N>", "<variant> <scenario>" or a scenario; benchmarks: ${specs.map((spec) => spec.id).join(', ')})`,
      ),
    );
  return (spec) => keys.some((key) => keyMatches(key, spec));
}

// The trend's baseline as configured now: --baseline REF, else trend.baseline, else the release tag.
export function configuredBaseline(repo, config, override) {
  return selectBaseline(repo, override ? { commit: override } : (config.trend?.baseline ?? DEFAULT_BASELINE));
}

async function measure({ repo, projectRoot, install, copy, config, settings, base, head, outDir, select, onProgress }) {
  checkGitSides(repo, base.sha, head.sha);
  const work = createWorkRoot();
  try {
    const side = (label, { ref, sha }) => prepareGitSide({ repo, sha, ref, label, work, projectRoot, install, copy });
    const sides = { base: side('base', base), head: side('head', head) };
    return await runComparison({ config, sides, settings, outDir, onProgress, select });
  } finally {
    work.remove();
  }
}

// When the head is the baseline itself, its ratio is 1 by definition: no measurement.
function identityRatios(config, select) {
  const ratios = {};
  for (const spec of expandSpecs(config).filter(select))
    for (const metric of JUDGED_METRICS.filter(measuredIn(config)))
      ratios[relativeName(spec.id, metric.name)] = {
        id: spec.id,
        metric: metric.name,
        direction: metric.direction,
        ratio: 1,
        ci: [1, 1],
      };
  return ratios;
}

/**
 * @param {{repo: string, projectRoot: string, install?: string[], copy?: string[], config: object, settings: object,
 *   baselinesFile: string, baseline?: string, reanchor?: boolean, outDir: string, onProgress?: Function,
 *   now?: () => number, compare?: Function, skipWithoutBaseline?: boolean, reanchorRounds?: number}} request
 *   settings: a point's (trendSettings); baseline: a ref that replaces the configured selection;
 *   skipWithoutBaseline: no release tag and nothing pinned is a skip, not an error; reanchorRounds: a
 *   link's rounds (default: twice the settings' rounds)
 * @returns {Promise<{kind: 'trend'|'reanchor'|'pinned'|'skipped', state: object, head: object, baseline: object,
 *   comparison?: object, ratios?: object, notices: string[], elapsedMs: number}>}
 */
export async function runTrend(request) {
  const { repo, config, baselinesFile, reanchor = false, onProgress = () => {}, now = Date.now } = request;
  const settings = request.settings ?? trendSettings();
  const startedAt = now();
  const select = trendSelection(config);
  const pinned = readBaselines(baselinesFile);
  const notices = [];
  const done = (result) => ({ notices, elapsedMs: now() - startedAt, ...result });
  // The configured baseline is needed to pin the first one and to re-anchor; a pinned trend
  // goes on without it (it only tells whether a newer one is there).
  let selected = null;
  let unselectable = null;
  try {
    selected = configuredBaseline(repo, config, request.baseline);
  } catch (error) {
    if (!(error instanceof PerfgateError)) throw error;
    unselectable = error;
  }
  if (unselectable && (reanchor || !pinned)) {
    // Before the first release there is nothing to be relative to, and that is no failure.
    if (!(unselectable.code === 'PG_NO_BASELINE_TAG' && request.skipWithoutBaseline && !pinned)) throw unselectable;
    notices.push(`no relative trend yet: ${unselectable.message.split(':')[0]}`);
    return done({ kind: 'skipped', state: null });
  }
  // request.compare: the comparison of two sides (tests stand in for the duet here).
  const compare = request.compare ?? measure;
  const measureSides = (base, head, measured = settings) =>
    compare({ ...request, settings: measured, base, head, select, onProgress });

  if (reanchor) {
    if (!pinned) {
      const state = pinFirst(selected);
      writeBaselines(baselinesFile, state);
      notices.push(`no baseline was pinned: pinned ${selected.ref}, ${selected.how} (nothing to link)`);
      return done({ kind: 'pinned', state, baseline: currentAnchor(state), head: selected });
    }
    const from = currentAnchor(pinned);
    if (from.sha === selected.sha) {
      notices.push(`the trend is already pinned to ${from.ref} (${from.sha.slice(0, 12)}): nothing to re-anchor`);
      return done({ kind: 'pinned', state: pinned, baseline: from, head: selected });
    }
    const link = linkSettings(settings, request.reanchorRounds);
    onProgress(`re-anchoring: ${selected.ref} against the pinned ${from.ref} (${link.maxRounds} rounds per benchmark)`);
    const comparison = await measureSides(from, selected, link);
    const ratios = directRatios(comparison);
    const links = Object.fromEntries(Object.entries(ratios).map(([name, { ratio, ci }]) => [name, { ratio, ci }]));
    const state = addAnchor(pinned, selected, links);
    writeBaselines(baselinesFile, state);
    return done({ kind: 'reanchor', state, baseline: from, head: selected, comparison, ratios });
  }

  const state = pinned ?? pinFirst(selected);
  if (!pinned) {
    writeBaselines(baselinesFile, state);
    notices.push(`pinned the baseline ${selected.ref}: ${selected.how}`);
  }
  const anchor = currentAnchor(state);
  if (pinned && selected && anchor.sha !== selected.sha)
    notices.push(
      `the configured baseline is now ${selected.ref} (${selected.how}), but the trend stays pinned to ${anchor.ref} until it is re-anchored explicitly: \`perfgate trend --reanchor\``,
    );
  const head = { ref: 'HEAD', sha: resolveCommit(repo, 'HEAD') };
  if (head.sha === anchor.sha) {
    notices.push(`HEAD is the baseline ${anchor.ref} itself: every ratio is 100 % by definition`);
    return done({ kind: 'trend', state, baseline: anchor, head, ratios: identityRatios(config, select) });
  }
  onProgress(`relative trend: HEAD (${head.sha.slice(0, 12)}) against the baseline ${anchor.ref}`);
  const comparison = await measureSides(anchor, head);
  return done({ kind: 'trend', state, baseline: anchor, head, comparison, ratios: directRatios(comparison) });
}
