#!/usr/bin/env node
// The relative trend's evidence, a benchmark (never a test): a synthetic main branch of a test
// repository made on this machine, with known slowdowns (and optionally a change of "hardware"),
// each commit measured by `bench` (absolute) and `trend` (relative); then which steps change-point
// detection finds on each kind of line, its false points, and the relative interval against the
// absolute run-to-run spread (bench/comparison/trend/evidence.js).
//   node scripts/measure-trend.mjs                                    30 commits, 3 % at 15, 2 % at 25
//   node scripts/measure-trend.mjs --commits 8 --steps 4:3,7:2 --duration 0.5 --rounds 6   a smoke
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../bench/cli/run.js';
import { suiteRequest } from '../bench/cli/suite-options.js';
import { TREND_COMMAND } from '../bench/cli/trend-command.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { errors, EXIT } from '../bench/core/errors.js';
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { machineInfo } from '../bench/measurement/machine.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { defaultResultsDir } from '../bench/results/write.js';
import { analyseHistory, evidenceMarkdown, measureSyntheticHistory } from '../bench/comparison/trend/evidence.js';
import { trendSettings } from '../bench/comparison/trend/run-trend.js';

const perfgateRoot = fileURLToPath(new URL('..', import.meta.url));
const { variant, scenario, connections, duration, warmup, engine, mode, rounds } = TREND_COMMAND.options;

const COMMAND = {
  name: 'measure-trend',
  invocation: 'node scripts/measure-trend.mjs',
  synopsis: '[--commits N] [--steps AT:PCT,...] [--hog-from N] [options]',
  summary:
    'A synthetic main of a test repository with known slowdowns, each commit measured by bench and trend:\nwhich steps detect finds on the absolute and the relative lines, false points, interval width vs spread.',
  options: {
    commits: { type: 'count', min: 2, value: 'N', help: 'main commits after the baseline', default: 30 },
    steps: {
      type: 'list',
      value: 'AT:PCT,...',
      help: 'slowdowns of req/s in % at commits, each on top of the last',
      default: '15:3,25:2',
    },
    'hog-from': {
      type: 'count',
      value: 'N',
      help: 'from this commit on, a CPU hog on the server cores (a change of "hardware")',
    },
    variant: { ...variant, defaultText: 'node-http' },
    scenario: { ...scenario, defaultText: 'json' },
    connections: { ...connections, defaultText: '10' },
    duration,
    warmup,
    engine,
    mode,
    rounds,
    out: { type: 'string', value: 'DIR', help: 'results directory', defaultText: 'results/<time>-measure-trend' },
  },
};

function parseSteps(items, commits) {
  const steps = [items]
    .flat()
    .flatMap((text) => String(text).split(','))
    .filter(Boolean)
    .map((item) => {
      const [at, pct] = item.split(':').map(Number);
      if (!(Number.isInteger(at) && at >= 2 && at <= commits && pct > 0 && pct < 50))
        throw errors.badArgs(
          [`--steps: "${item}" is not AT:PCT with AT in 2..${commits} and 0 < PCT < 50`],
          'e.g. --steps 15:3,25:2',
        );
      return { at, slowdown: pct / 100 };
    });
  return steps.sort((a, b) => a.at - b.at);
}

await runCommand(COMMAND, async ({ values }) => {
  const steps = parseSteps(values.steps, values.commits);
  const request = suiteRequest({
    ...values,
    variant: values.variant ?? 'node-http',
    scenario: values.scenario ?? 'json',
    connections: values.connections ?? '10',
    repetitions: 1,
  });
  const { config: resolved } = await resolveSuite(request);
  const specs = expandSpecs(resolved);
  if (specs.length !== 1)
    throw errors.badArgs(['measure one benchmark: one --variant, one --scenario and one --connections'], '');
  const outDir = values.out ?? defaultResultsDir('measure-trend');
  mkdirSync(outDir, { recursive: true });
  const hogFrom = values['hog-from'] ?? null;
  const started = Date.now();
  const measured = await measureSyntheticHistory({
    perfgateRoot,
    config: resolved,
    settings: trendSettings({ rounds: values.rounds, mode: values.mode }),
    commits: values.commits,
    steps,
    hogFrom,
    outDir,
    log: (line) => console.error(line),
  });
  const [{ id }] = specs;
  const rows = analyseHistory(measured.data, { id, steps: steps.map((step) => step.at), hogFrom });
  const machine = machineInfo();
  const load = loadavg()
    .map((each) => each.toFixed(1))
    .join(' ');
  const markdown = evidenceMarkdown(rows, {
    commits: values.commits,
    steps,
    hogFrom,
    loopsAt: measured.loopsAt,
    conditions: `${id}; bench: ${resolved.duration} s after ${resolved.warmup} s warm-up, one run; trend: ${values.rounds} duet rounds of the same length; ${machine.cpuModel} x${machine.cores}, load average at the end ${load}; ${Math.round((Date.now() - started) / 60000)} min. A shared machine: shapes, not speeds.`,
  });
  writeFileAtomicSync(join(outDir, 'evidence.md'), markdown);
  writeFileAtomicSync(
    join(outDir, 'evidence.json'),
    `${JSON.stringify({ rows, ...measured, data: undefined }, null, 2)}\n`,
  );
  console.log(markdown);
  console.log(`results: ${outDir} (data.js: the synthetic history; npm run site -- --data ${join(outDir, 'data.js')})`);
  return EXIT.ok;
});
