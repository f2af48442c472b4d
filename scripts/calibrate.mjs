#!/usr/bin/env node
// `npm run calibrate`: how trustworthy are compare's verdicts on this machine?
// For each benchmark (express json and fastify hello at c=100 by default) and each compare
// mode (duet, sequential), runs K A/A comparisons (this checkout against itself) and K where
// the head side's server does extra CPU work per request, sized from its measured CPU
// µs/request (a known slowdown, whose achieved size is measured and printed), alternating
// modes and kinds so that a slow phase of the machine hits all. Prints per benchmark and mode
// the false-alarm rate, the detection rate, the time to a verdict and the pooled A/A change;
// writes calibration.md and calibration.json, and keeps every trial's comparison.json.
// A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { calibrateBenchmark } from '../bench/calibration/run-calibration.js';
import { writeCalibration } from '../bench/calibration/write.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { MODES } from '../bench/compare/run-comparison.js';
import { defaultResultsDir } from '../bench/results/write.js';

// Rates are the point of calibrate: a profile after each injected trial would only cost time.
// It runs every mode and chooses its benchmarks itself.
const { profile, mode, variant, scenario, connections, ...measurementOptions } = COMPARISON_OPTIONS;

const CALIBRATE_COMMAND = {
  name: 'calibrate',
  invocation: 'npm run calibrate --',
  synopsis: '[options]',
  summary:
    "How trustworthy are compare's verdicts on this machine, per mode? K A/A comparisons and K with a known injected slowdown\nper benchmark and mode, with compare's measurement and verdict options; writes calibration.md and calibration.json.",
  options: {
    runs: {
      type: 'count',
      value: 'K',
      help: 'comparisons of each kind, A/A and injected, per benchmark and mode',
      default: 10,
    },
    slowdown: {
      type: 'positive',
      value: 'PCT',
      help: "the injected slowdown, sized from the server's CPU µs/request",
      default: 5,
    },
    sizings: {
      type: 'count',
      value: 'N',
      help: 'duet checks that size the slowdown, each correcting the last from the change it achieved',
      default: 3,
    },
    // A server-bound benchmark and one that is client-bound on a small machine.
    benchmark: {
      type: 'list',
      value: 'V:S:C',
      help: 'benchmarks as variant:scenario:connections',
      default: ['express:json:100', 'fastify:hello:100'],
    },
    modes: { type: 'list', value: 'A,B', help: `compare modes to calibrate (${MODES.join(', ')})`, default: MODES },
    ...measurementOptions,
    out: { ...COMPARISON_OPTIONS.out, defaultText: 'results/<time>-calibrate' },
  },
  check: (values) => [
    ...values.modes
      .filter((each) => !MODES.includes(each))
      .map((each) => `--modes: "${each}" is not a mode (${MODES.join(', ')})`),
    ...values.benchmark
      .filter((each) => each.split(':').length !== 3)
      .map((each) => `--benchmark: "${each}" is not variant:scenario:connections`),
  ],
};

await runCommand(CALIBRATE_COMMAND, async ({ values }) => {
  const outDir = values.out ?? defaultResultsDir('calibrate');
  const slowdown = values.slowdown / 100;
  const report = [];
  const sections = [];
  for (const chosen of values.benchmark) {
    const [variantName, scenarioName, tier] = chosen.split(':');
    const request = comparisonRequest({
      ...values,
      variant: [variantName],
      scenario: [scenarioName],
      connections: [tier],
    });
    const { config } = await resolveSuite(request);
    const benchOut = join(outDir, chosen.replace(/:/g, '-'));
    const settings = { ...request.settings, profile: 'never' };
    console.error(`${chosen}: sizing the slowdown from the server's CPU µs/request`);
    const calibrated = await calibrateBenchmark({
      config,
      settings,
      outDir: benchOut,
      slowdown,
      modes: values.modes,
      runs: values.runs,
      sizings: values.sizings,
    });
    sections.push(...calibrated.sections);
    report.push(...calibrated.report);
  }
  const markdown = sections.join('\n');
  writeCalibration(outDir, { slowdown, settings: comparisonRequest(values).settings, calibrations: report }, markdown);
  console.log(markdown);
  console.log(`results: ${outDir}`);
});
