#!/usr/bin/env node
// `npm run calibrate`: how trustworthy are compare's verdicts on this machine?
// For each benchmark (express json and fastify hello at c=100 by default) and each compare
// mode (duet, sequential), runs K A/A comparisons (this checkout against itself) and, per
// injected size (--slowdown 3,5), K where the head side's server does extra CPU work per
// request, sized from its measured CPU µs/request (a known slowdown, whose achieved size is
// measured and printed), alternating modes, kinds and sizes so that a slow phase of the machine
// hits all; with --neighbour PCT, a CPU hog on the server cores during every comparison, with
// --tenant PCT a tenant-like neighbour on all cores (bench/comparison/calibration/tenant.js). Prints
// per benchmark and mode the targets as check lines (detection per size, A/A slowdowns,
// the suite's derived rate, time to a verdict) and the pooled A/A change; writes calibration.md
// and calibration.json, and keeps every trial's comparison.json. With --suite-runs N, instead: N A/A
// comparisons of the whole suite (--suite, the default one by default), the suite-level rate measured.
// With --objects N,M and --leak BYTES instead: allocation-only changes and a leak, judged with the
// runtime agent on (bench/comparison/calibration/injections.js).
// A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { neighbourUnavailable } from '../bench/comparison/calibration/neighbour.js';
import { calibrateInjections, memoryInjections } from '../bench/comparison/calibration/injections.js';
import { calibrateBenchmark } from '../bench/comparison/calibration/run-calibration.js';
import {
  STALL,
  stallBenchmarkProblem,
  stallInjections,
  stallOption,
  stallProblem,
} from '../bench/comparison/calibration/stall.js';
import { calibrateSuite } from '../bench/comparison/calibration/suite-runs.js';
import { errors } from '../bench/core/errors.js';
import { writeCalibration } from '../bench/comparison/calibration/write.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { bandFlagProblems, COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { MODES } from '../bench/comparison/run-comparison.js';
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
      type: 'list',
      value: 'PCT,PCT',
      help: "the injected slowdowns, each sized from the server's CPU µs/request and calibrated apart",
      default: ['3', '5'],
    },
    neighbour: {
      type: 'positive',
      value: 'PCT',
      help: 'a CPU hog of this duty cycle (stress-ng) on the server cores during every comparison, started and stopped by calibrate',
    },
    tenant: {
      type: 'positive',
      value: 'PCT',
      help: "a tenant-like neighbour during every comparison, as another virtual machine on a hosted runner's host: all cores busy together, on and off at random (cycles of 0.4–4 s), at this average load; with --neighbour or alone",
    },
    stall: {
      type: 'string',
      value: 'MS/EVERY',
      help: 'instead of slowdowns: a head that sleeps MS milliseconds on every EVERY-th request (e.g. 20ms/200), on r= benchmarks (variant:scenario:r=RATE, --engine vegeta): how often compare calls a stall that moves the tail at a fixed rate but barely the CPU',
    },
    objects: {
      type: 'list',
      value: 'N,M',
      help: 'instead of slowdowns: heads that build and drop N (then M) small objects per request, an allocation-only change of a few KB (e.g. 50,200), judged with the runtime agent on: how often compare calls each, by which metric',
    },
    leak: {
      type: 'count',
      value: 'BYTES',
      help: 'instead of slowdowns (with --objects or alone): a head that keeps BYTES per request for good (e.g. 1024), judged with the runtime agent on',
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
      help: 'benchmarks as variant:scenario:connections, or variant:scenario:r=RATE with --stall',
      default: ['express:json:100', 'fastify:hello:100'],
    },
    modes: { type: 'list', value: 'A,B', help: `compare modes to calibrate (${MODES.join(', ')})`, default: MODES },
    'suite-runs': {
      type: 'count',
      value: 'N',
      help: "instead of the benchmarks' trials: N A/A comparisons of the whole suite (--suite) in duet, each judged as a pull request is; how many call no benchmark slower, and how long each takes",
    },
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
    ...values.slowdown
      .filter((each) => !(Number(each) > 0 && Number(each) < 100))
      .map((each) => `--slowdown: "${each}" is not a percentage between 0 and 100`),
    ...(values.stall === undefined ? [] : [stallProblem(values.stall)]).filter(Boolean),
    ...(values.stall === undefined ? [] : values.benchmark.map(stallBenchmarkProblem).filter(Boolean)),
    ...(values.objects ?? [])
      .filter((each) => !(/^\d+$/.test(each) && Number(each) > 0))
      .map((each) => `--objects: "${each}" is not a positive integer: give the small objects per request, e.g. 50,200`),
    ...(values.stall !== undefined && (values.objects || values.leak)
      ? ['--stall calibrates r= benchmarks, --objects and --leak connection tiers: give one of them per calibrate']
      : []),
    ...(values.neighbour > 100 ? [`--neighbour: ${values.neighbour} is more than 100 %`] : []),
    ...(values.tenant > 100 ? [`--tenant: ${values.tenant} is more than 100 %`] : []),
    ...bandFlagProblems(values),
  ],
};

await runCommand(CALIBRATE_COMMAND, async ({ values }) => {
  const outDir = values.out ?? defaultResultsDir('calibrate');
  const slowdowns = [...new Set(values.slowdown.map(Number))].sort((a, b) => a - b).map((each) => each / 100);
  // A missing hog is bad input, said before any server starts.
  const unavailable = values.neighbour ? neighbourUnavailable() : null;
  if (unavailable) throw errors.neighbourUnavailable(unavailable);
  if (values['suite-runs']) {
    const request = comparisonRequest(values);
    const { config } = await resolveSuite(request);
    const { section, report } = await calibrateSuite({
      config,
      settings: { ...request.settings, mode: 'duet', profile: 'never' },
      outDir,
      runs: values['suite-runs'],
      neighbour: values.neighbour,
      tenant: values.tenant,
      suite: config.name,
    });
    writeCalibration(
      outDir,
      {
        neighbour: values.neighbour ?? null,
        tenant: values.tenant ?? null,
        settings: request.settings,
        suiteRuns: report,
      },
      section,
    );
    console.log(section);
    console.log(`results: ${outDir}`);
    return;
  }
  const report = [];
  const sections = [];
  const stall = values.stall === undefined ? null : stallOption(values.stall);
  const injections = memoryInjections({ objects: (values.objects ?? []).map(Number), leak: values.leak });
  for (const chosen of values.benchmark) {
    const [variantName, scenarioName, tier] = chosen.split(':');
    const request = comparisonRequest({
      ...values,
      variant: [variantName],
      scenario: [scenarioName],
      ...(stall ? { rates: [tier.slice('r='.length)] } : { connections: [tier] }),
    });
    const { config } = await resolveSuite(request);
    const benchOut = join(outDir, chosen.replace(/[:=]/g, '-'));
    const settings = { ...request.settings, profile: 'never' };
    if (stall || injections.length) {
      const calibrated = await calibrateInjections({
        config,
        settings,
        outDir: benchOut,
        ...(stall ? { injections: stallInjections(stall), family: STALL } : { injections }),
        modes: values.modes,
        runs: values.runs,
        neighbour: values.neighbour,
        tenant: values.tenant,
      });
      sections.push(...calibrated.sections);
      report.push(...calibrated.report);
      continue;
    }
    console.error(`${chosen}: sizing the slowdown from the server's CPU µs/request`);
    const calibrated = await calibrateBenchmark({
      config,
      settings,
      outDir: benchOut,
      slowdowns,
      neighbour: values.neighbour,
      tenant: values.tenant,
      modes: values.modes,
      runs: values.runs,
      sizings: values.sizings,
    });
    sections.push(...calibrated.sections);
    report.push(...calibrated.report);
  }
  const markdown = sections.join('\n');
  writeCalibration(
    outDir,
    {
      ...(stall ? { stall } : injections.length ? { injections } : { slowdowns }),
      neighbour: values.neighbour ?? null,
      tenant: values.tenant ?? null,
      settings: comparisonRequest(values).settings,
      calibrations: report,
    },
    markdown,
  );
  console.log(markdown);
  console.log(`results: ${outDir}`);
});
