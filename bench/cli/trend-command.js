// `npm run trend` / `perfgate trend`: its option table and the turning of its values into a
// trend request. The suite and round options are compare's (a trend step is a comparison).
import { BENCH_COMMAND } from './bench-command.js';
import { COMPARISON_OPTIONS } from './compare-command.js';
import { suiteRequest } from './suite-options.js';
import { bandSettings } from '../results/metrics.js';
import { defaultReanchorRounds, TREND_DEFAULTS } from '../comparison/trend/run-trend.js';

// A trend point is a ratio with its interval, not a verdict: no band, gate, interval choice or adaptive stop.
const NOT_TREND = new Set([
  ...bandSettings().map((setting) => setting.flag),
  'interval',
  'fail-threshold',
  'min-rounds',
  'max-rounds',
  'profile',
]);
const options = Object.fromEntries(Object.entries(COMPARISON_OPTIONS).filter(([name]) => !NOT_TREND.has(name)));

export const TREND_COMMAND = {
  name: 'trend',
  invocation: 'npm run trend --',
  synopsis: '[--reanchor] [--baseline REF] [options]',
  summary:
    'The relative trend of main: HEAD measured in duet rounds against the pinned baseline (the last release tag,\nor trend.baseline of the config), per benchmark and judged metric the ratio with its 95 % interval, appended to\nthe local history as the suites "<name> throughput vs baseline" and "<name> latency vs baseline" (<name>: the name in\nperfgate.config, "perfgate" for perfgate\'s own suites).\n--reanchor measures the configured baseline against the pinned one once and pins it, so the lines chain.',
  options: {
    ...options,
    budget: { ...options.budget, help: 'time budget per benchmark; a benchmark that runs out of it gets no point' },
    out: { ...options.out, defaultText: 'results/<time>-trend (or -reanchor)' },
    rounds: {
      type: 'count',
      min: 6,
      value: 'N',
      help: 'duet rounds per benchmark (a fixed number: every point gets the same kind of interval)',
      default: TREND_DEFAULTS.rounds,
    },
    'reanchor-rounds': {
      type: 'count',
      min: 6,
      value: 'N',
      help: "duet rounds per benchmark of a re-anchor's link, which every later point of its lines carries",
      defaultText: `${defaultReanchorRounds(1)} × --rounds (${defaultReanchorRounds()})`,
    },
    baseline: {
      type: 'string',
      value: 'REF',
      help: 'the baseline commit or tag, instead of trend.baseline of the config',
      defaultText: 'the last tag matching "v*" reachable from HEAD',
    },
    reanchor: {
      type: 'boolean',
      help: 'move the pinned baseline to the configured one: measure the link between them once and store it',
    },
    baselines: {
      type: 'string',
      value: 'FILE',
      help: 'the baselines file (the pinned baseline and its links)',
      defaultText: 'baselines.json beside the history',
    },
    'baselines-from': {
      type: 'string',
      value: 'REPO',
      help: 'when the baselines file is missing, take it from dev/bench/baselines.json on the gh-pages branch of REPO (path or URL)',
    },
    'skip-without-baseline': {
      type: 'boolean',
      help: 'no release tag yet and no baseline pinned: say so and measure nothing (exit 0), for a repository before its first release',
    },
    repo: { type: 'string', value: 'DIR', help: 'the repository whose HEAD is measured', defaultText: '.' },
    history: BENCH_COMMAND.options.history,
  },
};

export function parseTrendArgs(values) {
  const request = suiteRequest(values);
  return {
    ...request,
    overrides: { ...request.overrides, repetitions: 1 },
    outDir: values.out,
    historyFile: values.history === false ? null : values.history,
    baselinesFile: values.baselines,
    baselinesFrom: values['baselines-from'],
    skipWithoutBaseline: values['skip-without-baseline'] === true,
    baseline: values.baseline,
    reanchor: values.reanchor === true,
    reanchorRounds: values['reanchor-rounds'],
    repo: values.repo ?? process.cwd(),
    settings: { rounds: values.rounds, mode: values.mode, budgetSeconds: values.budget },
  };
}
