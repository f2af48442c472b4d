// The command line of `npm run compare`, turned into a comparison request.
import { errors } from '../../bench/errors.js';
import { INTERVAL_KINDS } from '../../bench/stats/index.js';
import { rejectUnknownFlags, SUITE_FLAGS, suiteOverrides, toNumber } from './bench-args.js';

export const COMPARE_USAGE = `usage: npm run compare -- (--base REF --head REF | --dep PKG@V1 --vs PKG@V2) [options]
  --base REF --head REF   two commits of --repo (default: this checkout), each in its own worktree
  --dep PKG@V1 --vs PKG@V2  two versions of an npm package (default variants: those using it)
  --suite, --config, --variant, --scenario, --connections, --workers, --pipelining, --timeout
                          choose the benchmarks, as for npm run bench (default suite: default)
  --duration S            measured seconds per round (default 3)
  --warmup S              discarded warm-up per round (default 1)
  --threshold PCT         req/s: an interval wholly inside ±PCT is "no change" (default 5)
  --min-effect PCT        req/s: an interval wholly beyond ±PCT is a regression/improvement (default 2)
  --p99-threshold PCT     p99 latency: both of the above (default 10)
  --interval KIND         the interval that decides: paired (per-round ratios, signed-rank; needs >= 6 rounds),
                          welch or bootstrap (independent samples) (default paired; bench/stats/METHOD.md)
  --fail-threshold PCT    exit 1 when a req/s regression lies wholly beyond this (default 10)
  --budget S              time budget per benchmark; then the verdict is inconclusive (default 180)
  --min-rounds N          rounds per side before a verdict may stop the sampling (default 5)
  --max-rounds N          at most this many rounds per side (default 60)
  --profile / --no-profile  a differential CPU profile for every benchmark / for none (default: for each
                          benchmark with a regression), from one more run of both sides after the rounds
  --out DIR               results directory (default: results/<time>-compare)`;

const COMPARE_DEFAULTS = { duration: 3, warmup: 1, threshold: 5, 'min-effect': 2, 'p99-threshold': 10, 'fail-threshold': 10, budget: 180, 'min-rounds': 5, 'max-rounds': 60 };
const SETTINGS_FLAGS = ['profile', 'threshold', 'min-effect', 'p99-threshold', 'fail-threshold', 'budget', 'min-rounds', 'max-rounds', 'interval'];
// Compare's rounds come in pairs, so the paired interval decides unless told otherwise.
const DEFAULT_INTERVAL = 'paired';

export function positive(flag, value) {
  const number = toNumber(value);
  if (typeof number !== 'number' || !(number > 0)) throw errors.badConfig('command line', [`--${flag} must be a number > 0, not "${value}"`]);
  return number;
}

// The measurement and judgement flags, shared with `npm run calibrate`.
export const COMPARISON_FLAGS = [...SUITE_FLAGS, 'out', ...SETTINGS_FLAGS];

function intervalKind(given = DEFAULT_INTERVAL) {
  const kind = [given].flat().at(-1);
  if (!INTERVAL_KINDS.includes(kind)) throw errors.badConfig('command line', [`--interval must be one of ${INTERVAL_KINDS.join(', ')}, not "${kind}"`]);
  return kind;
}

// --profile: always; --no-profile: never; neither: only where compare finds a regression.
const profileMode = (flag) => (flag === undefined ? 'auto' : [flag].flat().at(-1) ? 'always' : 'never');

export function comparisonRequest(parsed) {
  // A flag given twice: the last one wins, as in most command lines.
  const value = (flag) => positive(flag, [parsed[flag] ?? COMPARE_DEFAULTS[flag]].flat().at(-1));
  return {
    suite: parsed.suite,
    configFile: parsed.config,
    overrides: { ...suiteOverrides(parsed), duration: value('duration'), warmup: toNumber(parsed.warmup ?? COMPARE_DEFAULTS.warmup), repetitions: 1 },
    outDir: parsed.out,
    settings: {
      thresholds: {
        'req/s': { threshold: value('threshold') / 100, minimumEffect: value('min-effect') / 100 },
        'p99 latency': { threshold: value('p99-threshold') / 100, minimumEffect: value('p99-threshold') / 100 },
      },
      interval: intervalKind(parsed.interval),
      failThreshold: value('fail-threshold') / 100,
      budgetSeconds: value('budget'),
      minRounds: value('min-rounds'),
      maxRounds: value('max-rounds'),
      profile: profileMode(parsed.profile),
    },
  };
}

export function parseCompareArgs(parsed) {
  rejectUnknownFlags(parsed, [...COMPARISON_FLAGS, 'base', 'head', 'dep', 'vs', 'repo'], 'compare');
  if (parsed.help) return { help: true };
  const byRefs = parsed.base !== undefined || parsed.head !== undefined;
  const byDeps = parsed.dep !== undefined || parsed.vs !== undefined;
  if (byRefs === byDeps || (byRefs && !(parsed.base && parsed.head)) || (byDeps && !(parsed.dep && parsed.vs))) {
    throw errors.badConfig('command line', ['give either --base REF and --head REF, or --dep PKG@V1 and --vs PKG@V2']);
  }
  return {
    ...comparisonRequest(parsed),
    base: parsed.base,
    head: parsed.head,
    dep: parsed.dep,
    vs: parsed.vs,
    repo: parsed.repo ?? process.cwd(),
  };
}
