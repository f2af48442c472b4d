// `npm run compare`: its option table and the turning of its values into a comparison request.
// The measurement and verdict options are shared with `npm run calibrate`.
import { INTERVAL_KINDS } from '../stats/index.js';
import { SUITE_OPTIONS, suiteRequest } from './suite-options.js';

// Compare measures in rounds of one run per side, so --repetitions is not among them.
const { repetitions, ...suiteOptions } = SUITE_OPTIONS;

export const COMPARISON_OPTIONS = {
  ...suiteOptions,
  duration: { ...SUITE_OPTIONS.duration, type: 'positive', help: 'measured seconds per round', default: 3 },
  warmup: { ...SUITE_OPTIONS.warmup, help: 'discarded warm-up per round', default: 1 },
  threshold: { type: 'positive', value: 'PCT', help: 'req/s: an interval wholly inside ±PCT is "no change"', default: 5 },
  'min-effect': { type: 'positive', value: 'PCT', help: 'req/s: an interval wholly beyond ±PCT is a regression/improvement', default: 2 },
  'p99-threshold': { type: 'positive', value: 'PCT', help: 'p99 latency: both of the above', default: 10 },
  interval: { type: 'choice', choices: INTERVAL_KINDS, value: 'KIND', help: 'the interval that decides: paired (per-round ratios, signed-rank; needs >= 6 rounds), welch or bootstrap (independent samples); bench/stats/METHOD.md', default: 'paired' },
  'fail-threshold': { type: 'positive', value: 'PCT', help: 'exit 1 when a req/s regression lies wholly beyond this', default: 10 },
  budget: { type: 'positive', value: 'S', help: 'time budget per benchmark; then the verdict is inconclusive', default: 180 },
  'min-rounds': { type: 'positive', value: 'N', help: 'rounds per side before a verdict may stop the sampling', default: 5 },
  'max-rounds': { type: 'positive', value: 'N', help: 'at most this many rounds per side', default: 60 },
  out: { type: 'string', value: 'DIR', help: 'results directory', defaultText: 'results/<time>-compare' },
};

export const COMPARE_COMMAND = {
  name: 'compare',
  invocation: 'npm run compare --',
  synopsis: '(--base REF --head REF | --dep PKG@V1 --vs PKG@V2) [options]',
  summary: 'Base vs head, interleaved, with a verdict per benchmark and metric. Writes comparison.json and comparison.md,\nappends the report to $GITHUB_STEP_SUMMARY, and exits 1 only on a regression beyond --fail-threshold.',
  options: {
    base: { type: 'string', value: 'REF', help: 'the base commit of --repo, in its own worktree' },
    head: { type: 'string', value: 'REF', help: 'the head commit of --repo, in its own worktree' },
    repo: { type: 'string', value: 'DIR', help: 'the repository of --base and --head', defaultText: 'the current directory' },
    dep: { type: 'string', value: 'PKG@V1', help: 'the base version of an npm package (default variants: those using it)' },
    vs: { type: 'string', value: 'PKG@V2', help: 'the head version of the same package' },
    ...COMPARISON_OPTIONS,
  },
  check: (values) => {
    const byRefs = values.base !== undefined || values.head !== undefined;
    const byDeps = values.dep !== undefined || values.vs !== undefined;
    const whole = byRefs ? values.base && values.head : values.dep && values.vs;
    return byRefs === byDeps || !whole ? ['give either --base REF and --head REF, or --dep PKG@V1 and --vs PKG@V2'] : [];
  },
};

// The option values of COMPARISON_OPTIONS -> the suite request and the comparison settings.
export function comparisonRequest(values) {
  const request = suiteRequest(values);
  return {
    ...request,
    overrides: { ...request.overrides, repetitions: 1 },
    outDir: values.out,
    settings: {
      thresholds: {
        'req/s': { threshold: values.threshold / 100, minimumEffect: values['min-effect'] / 100 },
        'p99 latency': { threshold: values['p99-threshold'] / 100, minimumEffect: values['p99-threshold'] / 100 },
      },
      interval: values.interval,
      failThreshold: values['fail-threshold'] / 100,
      budgetSeconds: values.budget,
      minRounds: values['min-rounds'],
      maxRounds: values['max-rounds'],
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
    repo: values.repo ?? process.cwd(),
  };
}
