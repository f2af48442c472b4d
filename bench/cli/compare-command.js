// `npm run compare`: its option table and the turning of its values into a comparison request.
// The measurement and verdict options are shared with `npm run calibrate`.
import { MODES } from '../comparison/run-comparison.js';
import { LEAK_THRESHOLD_BYTES } from '../comparison/leak-gate.js';
import { NO_CHANGE_MARGINS } from '../comparison/rounds.js';
import { percentNumber as percent } from '../core/format.js';
import { bandProblems, bandSettings, bandsFrom, defaultBands } from '../results/metrics.js';
import { COMPARE_DEFAULTS, INTERVAL_KINDS } from '../stats/index.js';
import { SYSTEM } from '../measurement/runtime/spec.js';
import { SUITE_OPTIONS, suiteRequest } from './suite-options.js';

// What a band flag sets, in its help: the metrics it applies to and the part of their band.
const PART_HELP = {
  threshold:
    'the band: an interval wholly on one side of zero and inside ±PCT is a small change (smaller than the gate, but certain)',
  minimumEffect: 'an interval wholly beyond ±PCT is a regression/improvement',
  noChangeMargin:
    'the 90 % interval wholly inside ±PCT is "no change" (wider: shorter comparisons, more small changes passed as none)',
};
function bandHelp({ sets }) {
  const metrics = [...new Set(sets.map((each) => each.metric))].join(' and ');
  const parts = new Set(sets.map((each) => each.part));
  if (parts.size > 1) return `${metrics}: an interval wholly inside ±PCT is "no change", wholly beyond it a change`;
  return `${metrics}: ${PART_HELP[[...parts][0]]}`;
}

// One flag per verdict band setting of the metric registry (bench/results/metrics.js), in percent; a part
// without a default (the no-change margin) is derived from the others unless given.
const BAND_OPTIONS = Object.fromEntries(
  bandSettings().map((setting) => [
    setting.flag,
    {
      type: 'positive',
      value: 'PCT',
      help: bandHelp(setting),
      ...(setting.default === undefined
        ? {
            defaultText: `${percent(COMPARE_DEFAULTS.noChangeShare)} % of the band, at least the minimum effect: ${percent(
              NO_CHANGE_MARGINS.band(defaultBands()[setting.sets[0].metric]),
            )}`,
          }
        : { default: percent(setting.default) }),
    },
  ]),
);

// Band flags whose values make no band, said before anything is measured.
export const bandFlagProblems = (values) => bandProblems(bandsFrom(values, 'flag', defaultBands()));

// Compare measures in rounds of one run per side, so --repetitions is not among them.
const { repetitions, ...suiteOptions } = SUITE_OPTIONS;

export const COMPARISON_OPTIONS = {
  ...suiteOptions,
  duration: {
    ...SUITE_OPTIONS.duration,
    type: 'positive',
    help: 'measured seconds per round',
    default: COMPARE_DEFAULTS.roundSeconds,
  },
  warmup: {
    ...SUITE_OPTIONS.warmup,
    type: 'nonNegative',
    help: 'discarded warm-up per round',
    default: COMPARE_DEFAULTS.warmupSeconds,
  },
  mode: {
    type: 'choice',
    choices: MODES,
    value: 'MODE',
    help: 'duet: base and head at the same time on the same cores; sequential: one after the other (also the fallback, with its reason, where duet cannot run)',
    default: 'duet',
  },
  ...BAND_OPTIONS,
  interval: {
    type: 'choice',
    choices: INTERVAL_KINDS,
    value: 'KIND',
    help: 'the interval that decides: paired (per-round ratios, signed-rank; needs >= 6 rounds), welch or bootstrap (independent samples); bench/stats/METHOD.md',
    default: COMPARE_DEFAULTS.interval,
  },
  'fail-threshold': {
    type: 'positive',
    value: 'PCT',
    help: 'exit 1 when a regression in the metric that called the verdict lies wholly beyond this',
    default: percent(COMPARE_DEFAULTS.failThreshold),
  },
  'leak-threshold': {
    type: 'nonNegative',
    value: 'MB',
    help: "with --soak-every, exit 1 when the head's heap growth per 10,000 requests lies wholly above this and above the base's, and the base's does not (a leak, even when the head is not slower)",
    default: LEAK_THRESHOLD_BYTES / 1e6,
  },
  confirm: {
    type: 'boolean',
    negatable: true,
    help: 'measure a benchmark called slower or faster (a regression or improvement, or a small one) once more; that second run decides (--no-confirm: the first does), so that a suite rarely calls a false change',
    default: true,
  },
  budget: {
    type: 'positive',
    value: 'S',
    help: 'time budget per benchmark; then the verdict is inconclusive',
    default: COMPARE_DEFAULTS.budgetSeconds,
  },
  'min-rounds': {
    type: 'count',
    value: 'N',
    help: 'rounds per side before a verdict may stop the sampling',
    default: COMPARE_DEFAULTS.minRounds,
  },
  'max-rounds': {
    type: 'count',
    value: 'N',
    help: 'at most this many rounds per side',
    default: COMPARE_DEFAULTS.maxRounds,
  },
  profile: {
    type: 'boolean',
    negatable: true,
    help: 'a differential CPU profile for every benchmark (--no-profile: for none), from one more run of both sides after the rounds',
    defaultText: 'for each benchmark with a regression',
  },
  'alloc-profile': {
    type: 'boolean',
    negatable: true,
    help: "a differential allocation profile (V8's sampling heap profiler: bytes allocated per request by function and package) for every benchmark (--no-alloc-profile: for none), in the same run as --profile's",
    defaultText: 'for each benchmark whose heap bytes/request regressed, unless --no-profile',
  },
  alone: {
    type: 'boolean',
    negatable: true,
    help: "in duet, one more round of each side alone for every benchmark (--no-alone: for none): a single server's figures beside duet's shared-core ones",
    defaultText: 'for each benchmark duet calls slower or faster',
  },
  out: { type: 'string', value: 'DIR', help: 'results directory', defaultText: 'results/<time>-compare' },
};

// --profile / --alloc-profile / --alone: always; --no-…: never; neither: only where compare finds a change.
const switchMode = (flag) => ({ true: 'always', false: 'never' })[flag] ?? 'auto';

export const COMPARE_COMMAND = {
  name: 'compare',
  invocation: 'npm run compare --',
  synopsis:
    '(--base REF --head REF | --dep PKG@V1 --vs PKG@V2 | --runtime A --vs-runtime B | --override PKG@SPEC ...) [options]',
  summary:
    'Base vs head, in duet (or sequential) rounds, with a verdict per benchmark and metric. Writes comparison.json and comparison.md,\nappends the report to $GITHUB_STEP_SUMMARY, and exits 1 on a regression beyond --fail-threshold or a benchmark\nthe head failed (crashed, answered wrongly, never ready), 2 when one could not be compared (the base failed too).',
  options: {
    base: { type: 'string', value: 'REF', help: 'the base commit of --repo, in its own worktree' },
    head: { type: 'string', value: 'REF', help: 'the head commit of --repo, in its own worktree' },
    repo: {
      type: 'string',
      value: 'DIR',
      help: 'the repository of --base and --head',
      defaultText: 'the current directory',
    },
    dep: {
      type: 'string',
      value: 'PKG@V1',
      help: 'the base version of an npm package (default variants: those using it)',
    },
    vs: { type: 'string', value: 'PKG@V2', help: 'the head version of the same package' },
    'dep-lock': {
      type: 'string',
      value: 'DIR',
      help: "install --dep exactly as DIR's package-lock.json (and package.json overrides) lock it and what it needs: registry versions with integrity only, by npm ci (the upgrade gate)",
      defaultText: 'npm resolves --dep now',
    },
    'vs-lock': { type: 'string', value: 'DIR', help: 'the same for --vs', defaultText: 'npm resolves --vs now' },
    override: {
      type: 'string',
      multiple: true,
      value: 'PKG@SPEC',
      help: "head's dependency override, anywhere in the tree (npm overrides; repeatable): a version or range, file:PATH (tarball or folder) or a git URL; alone: the working tree vs the working tree with it",
    },
    'base-override': {
      type: 'string',
      multiple: true,
      value: 'PKG@SPEC',
      help: "the same for the base side (perfgate.config's overrides.base and overrides.head set them too)",
    },
    runtime: {
      type: 'string',
      value: 'RUNTIME',
      help: "the servers' runtime, of both sides unless --vs-runtime: system, node@24, node@22.11.0, bun@1.3, ... (README: Runtimes)",
      defaultText: 'system',
    },
    'vs-runtime': {
      type: 'string',
      value: 'RUNTIME',
      help: "head's runtime; alone (without --base/--head or --dep/--vs): the same code on --runtime vs --vs-runtime",
      defaultText: '--runtime',
    },
    ...COMPARISON_OPTIONS,
  },
  check: (values) => [...sideProblems(values), ...bandFlagProblems(values)],
};

// What is wrong with the choice of the two sides.
function sideProblems(values) {
  const byRefs = values.base !== undefined || values.head !== undefined;
  const byDeps = values.dep !== undefined || values.vs !== undefined;
  const whole = byRefs ? values.base && values.head : values.dep && values.vs;
  const byOverrides = values.override !== undefined || values['base-override'] !== undefined;
  if (byDeps && byOverrides)
    return ['--override and --base-override go with --base/--head or alone; --dep/--vs is the one-package case'];
  if (!byRefs && !byDeps && (values['vs-runtime'] !== undefined || byOverrides)) return [];
  if (byRefs === byDeps || !whole)
    return [
      'give either --base REF and --head REF, or --dep PKG@V1 and --vs PKG@V2, or --vs-runtime RUNTIME (the same code on two runtimes), or --override PKG@SPEC (the same code with a dependency changed)',
    ];
  return (values['dep-lock'] || values['vs-lock']) && !byDeps
    ? ['--dep-lock and --vs-lock go with --dep and --vs']
    : [];
}

// The option values of COMPARISON_OPTIONS -> the suite request and the comparison settings.
export function comparisonRequest(values) {
  const request = suiteRequest(values);
  return {
    ...request,
    // A side's runtime is the side's (--runtime, --vs-runtime), not a list the benchmarks multiply by.
    overrides: { ...request.overrides, repetitions: 1, runtimes: [SYSTEM] },
    outDir: values.out,
    settings: {
      // The judged metrics and their default bands: bench/results/metrics.js; the band options set them.
      thresholds: bandsFrom(values, 'flag', defaultBands()),
      mode: values.mode,
      interval: values.interval,
      failThreshold: values['fail-threshold'] / 100,
      leakThreshold: values['leak-threshold'] * 1e6,
      confirm: values.confirm,
      budgetSeconds: values.budget,
      minRounds: values['min-rounds'],
      maxRounds: values['max-rounds'],
      profile: switchMode(values.profile),
      allocProfile: switchMode(values['alloc-profile']),
      alone: switchMode(values.alone),
    },
  };
}

export function parseCompareArgs(values) {
  return {
    ...comparisonRequest(values),
    base: values.base,
    head: values.head,
    dep: values.dep,
    vs: values.vs,
    depLock: values['dep-lock'],
    vsLock: values['vs-lock'],
    runtime: values.runtime,
    vsRuntime: values['vs-runtime'],
    sideOverrides: { base: values['base-override'] ?? [], head: values.override ?? [] },
    repo: values.repo ?? process.cwd(),
  };
}
