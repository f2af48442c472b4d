// `npm run bisect`: finds the commit that made one benchmark slower, between a good and a bad
// commit, by compare's measurement at each step (bench/comparison/bisect/search.js), then profiles that
// commit against its parent. Each commit is checked out once, in its own worktree, and reused.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { errors } from '../../core/errors.js';
import { git } from '../../core/git.js';
import { resolveCommit, prepareGitSide } from '../sides.js';
import { measureComparison } from '../run-comparison.js';
import { sideSandbox } from '../../measurement/sandbox/bubblewrap.js';
import { runInPrivateNetwork } from '../../measurement/sandbox/private-network.js';
import { fenceSides } from '../../measurement/sandbox/side-networks.js';
import { loadSideVariants } from '../sides.js';
import { measurementSettings, openMeasurement } from '../../measurement/context.js';
import { profileBenchmark } from '../profile/profile-benchmark.js';
import { expandSpecs, onlyLoadPoint } from '../../measurement/specs.js';
import { loadPointOf } from '../../../site/shared/load-point.js';
import { bisectCommits } from './search.js';

const BISECT_FORMAT = { format: 'perfgate-bisect', version: 1 };
// The retry of an inconclusive step gets this much more time and rounds.
const RETRY_BUDGET_FACTOR = 2;

// The first-parent commits from good (first) to bad (last): the mainline a step is searched on.
function firstParentRange(repo, good, bad) {
  const shas = { good: resolveCommit(repo, good), bad: resolveCommit(repo, bad) };
  if (shas.good === shas.bad) throw errors.sameSides(good, bad, shas.good);
  const between = git(repo, 'rev-list', '--first-parent', '--reverse', `${shas.good}..${shas.bad}`)
    .split('\n')
    .filter(Boolean);
  const onMainline = between.length > 0 && git(repo, 'rev-parse', `${between[0]}^`) === shas.good;
  if (!onMainline) throw errors.notAncestor(good, bad);
  return [shas.good, ...between];
}

// The one benchmark to search for, by its name (a history name's " - metric" suffix is allowed).
function singleBenchmarkConfig(config, name) {
  const specs = expandSpecs(config);
  const wanted = name ? name.replace(/ - [^-]+$/, '') : undefined;
  const matching = wanted ? specs.filter((spec) => spec.id === wanted) : specs;
  if (matching.length !== 1) {
    if (!wanted)
      throw errors.badConfig('command line', [
        `bisect follows one benchmark, but ${specs.length} match: give --benchmark NAME (${specs.map((spec) => spec.id).join(', ')})`,
      ]);
    throw errors.noBenchmarkMatch(
      name,
      specs.map((spec) => spec.id),
    );
  }
  const [spec] = matching;
  return {
    spec,
    // reference: a project's built-in references are other benchmarks, not this one.
    config: {
      ...config,
      variants: [spec.variant],
      scenarios: [spec.scenario],
      ...onlyLoadPoint(loadPointOf(spec)),
      options: spec.options,
      reference: undefined,
    },
  };
}

/**
 * The differential profile of one benchmark between two prepared sides (bisect's found commit
 * and its parent); with sandboxed sides it runs in their private network (runInPrivateNetwork).
 */
export async function profileCommit({ spec, sides: given, config, outDir }) {
  // Each sandboxed side on a network of its own, as in the comparison (side-networks.js).
  const { sides } = fenceSides(given);
  const variantOf = async (side) => (await loadSideVariants(side, [spec.variant], config.commands))[spec.variant];
  return profileBenchmark({
    spec,
    variants: { base: await variantOf(sides.base), head: await variantOf(sides.head) },
    roots: { base: sides.base.root, head: sides.head.root },
    measurement: await openMeasurement({ config }),
    settings: measurementSettings(config, spec),
    outDir,
  });
}

const subjectOf = (repo, sha) => git(repo, 'log', '-1', '--format=%s', sha);

/**
 * @param {{repo: string, good: string, bad: string, benchmark?: string, config: object, settings: object,
 *   outDir: string, projectRoot: string, install?: string[], work: object, onProgress?: Function}} request
 *   install, copy: how a side installs its dependencies and which untracked files it gets (a project's
 *   perfgate.config "install" and "copy");
 *   sandboxed: whether the candidates' servers run sandboxed
 */
export async function runBisect({
  repo,
  good,
  bad,
  benchmark,
  config,
  settings,
  outDir,
  projectRoot,
  install,
  copy,
  work,
  sandboxed = false,
  onProgress = () => {},
}) {
  const startedAt = Date.now();
  const commits = firstParentRange(repo, good, bad);
  const chosen = singleBenchmarkConfig(config, benchmark);
  const sides = new Map();
  // Every candidate is code under test: sandboxed when `sandboxed` (bench/measurement/sandbox sandboxDecision).
  const sideOf = (sha) => {
    if (!sides.has(sha)) {
      const side = prepareGitSide({
        repo,
        sha,
        ref: sha.slice(0, 12),
        label: sha.slice(0, 12),
        work,
        projectRoot,
        install,
        copy,
        sandboxed,
      });
      sides.set(sha, sandboxed ? { ...side, sandbox: sideSandbox(side) } : side);
    }
    return sides.get(sha);
  };
  let stepNumber = 0;
  const judge = async (goodSha, candidateSha, attempt) => {
    stepNumber++;
    const stepStarted = Date.now();
    onProgress(
      `step ${stepNumber}: ${candidateSha.slice(0, 12)} against ${goodSha.slice(0, 12)}${attempt > 1 ? ' (again, larger budget)' : ''}`,
    );
    const stepSettings =
      attempt > 1
        ? {
            ...settings,
            budgetSeconds: settings.budgetSeconds * RETRY_BUDGET_FACTOR,
            maxRounds: settings.maxRounds * RETRY_BUDGET_FACTOR,
          }
        : settings;
    const stepDir = join(outDir, `step-${stepNumber}`);
    const comparison = await measureComparison({
      config: chosen.config,
      sides: { base: sideOf(goodSha), head: sideOf(candidateSha) },
      settings: { ...stepSettings, profile: 'never' },
      outDir: stepDir,
    });
    writeFileAtomicSync(join(stepDir, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
    const [measured] = comparison.benchmarks;
    if (measured.status !== 'ok') throw errors.bisectStepFailed(candidateSha, measured.status, measured.reason);
    // The benchmark's overall verdict and the metric that called it (bench/comparison/rounds.js).
    const { verdict, calledBy } = measured.verdict;
    // Where no single metric called it, the interval shown is the first deciding metric's.
    const called = measured.verdicts[calledBy] ?? measured.verdicts[calledBy.split(' + ')[0]] ?? {};
    onProgress(`  ${verdict} (${calledBy})`);
    return {
      verdict,
      metric: calledBy,
      change: called.change ?? null,
      ci: called.ci ?? null,
      rounds: measured.rounds,
      seconds: Math.round((Date.now() - stepStarted) / 1000),
      subject: subjectOf(repo, candidateSha),
    };
  };
  const found = await bisectCommits({ commits, judge });
  let profile;
  if (found.outcome === 'found' && settings.profile !== 'never') {
    onProgress(`profiling ${found.bad.slice(0, 12)} against its parent`);
    const step = {
      spec: chosen.spec,
      sides: { base: sideOf(found.good), head: sideOf(found.bad) },
      config: chosen.config,
      outDir,
    };
    profile = sandboxed
      ? (await runInPrivateNetwork(import.meta.url, 'profileCommit', step)).result
      : await profileCommit(step);
  }
  return {
    ...BISECT_FORMAT,
    benchmark: chosen.spec.id,
    range: { good: commits[0], bad: commits.at(-1), commits: commits.length },
    outcome: found.outcome,
    firstBad:
      found.outcome === 'found' ? { sha: found.bad, subject: subjectOf(repo, found.bad), parent: found.good } : null,
    // unresolved: the step lies after `good`, up to and including `bad`
    unresolvedRange: found.outcome === 'unresolved' ? { good: found.good, bad: found.bad } : null,
    steps: found.steps.map((step) => ({ ...step })),
    elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
    ...(profile ? { profile } : {}),
  };
}
