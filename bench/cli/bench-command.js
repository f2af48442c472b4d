// `npm run bench`: its option table and the turning of its values into a run request.
import { commandLine } from '../core/invocation.js';
import { SUITE_OPTIONS, suiteRequest } from './suite-options.js';
import { KNEE_DEFAULTS } from '../measurement/knee.js';

export const BENCH_COMMAND = {
  name: 'bench',
  invocation: 'npm run bench --',
  synopsis: '[options]',
  summary: `Runs a suite, prints its table and writes result.json, the github-action-benchmark inputs and table.md,\nand appends the run to the local history that \`${commandLine('site')}\` shows.`,
  options: {
    ...SUITE_OPTIONS,
    runtime: {
      type: 'list',
      value: 'A,B',
      help: 'run every benchmark on each runtime: system (the Node.js running perfgate), node@24, node@22.11.0, bun@1.3, ...; installed from the npm registry into $PERFGATE_RUNTIME_CACHE (~/.cache/perfgate/runtimes)',
      defaultText: "system, or the suite's",
    },
    out: { type: 'string', value: 'DIR', help: 'results directory', defaultText: 'results/<time>-<suite>' },
    'slo-report-only': {
      type: 'boolean',
      help: "report each SLO (the config's slo and benchmarkSlo) as met or broken without failing: exit 0 when one breaks",
    },
    'find-knee': {
      type: 'boolean',
      help: "instead of the suite's table: for each benchmark with an SLO, search from --rate (else its first --rates tier) for the highest rate at which every SLO holds (an open-model engine: --engine vegeta), report it with its interval, and add it to the history as '<benchmark> - knee rate'",
    },
    'knee-steps': {
      type: 'count',
      min: 2,
      value: 'N',
      help: '--find-knee: loads per benchmark at most',
      default: KNEE_DEFAULTS.steps,
    },
    'knee-seconds': {
      type: 'positive',
      value: 'S',
      help: "--find-knee: a benchmark's search starts no load after this many seconds",
      default: KNEE_DEFAULTS.seconds,
    },
    history: {
      type: 'string',
      value: 'FILE',
      negatable: true,
      help: 'local history file; --no-history: do not append this run',
      defaultText: '.perfgate/history/data.js',
    },
  },
};

// history: undefined (the default file), null (--no-history) or the file given.
export function parseBenchArgs(values) {
  const request = suiteRequest(values);
  return {
    ...request,
    overrides: { ...request.overrides, ...(values.runtime ? { runtimes: values.runtime } : {}) },
    outDir: values.out,
    historyFile: values.history === false ? null : values.history,
    sloReportOnly: values['slo-report-only'] === true,
    ...(values['find-knee']
      ? { knee: { steps: values['knee-steps'], seconds: values['knee-seconds'], precision: KNEE_DEFAULTS.precision } }
      : {}),
  };
}
