#!/usr/bin/env node
// `npm run duet-cost`: what running both sides at once (duet) costs each server, and whether
// duet reports an injected change as a single server sees it. Per benchmark, A/A comparisons of
// this checkout in duet and sequential mode with fixed rounds, then each injected change
// (--inject-loops: CPU only; --inject-objects: allocation only) in both modes
// (bench/comparison/calibration/duet-cost.js). Writes duet-cost.md and duet-cost.json and
// keeps every comparison. A benchmark script: it asserts nothing.
import { join } from 'node:path';
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { duetCostMarkdown, measureDuetCost } from '../bench/comparison/calibration/duet-cost.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { defaultResultsDir } from '../bench/results/write.js';

// It chooses its benchmarks, modes and rounds itself.
const { profile, mode, variant, scenario, connections, ...measurementOptions } = COMPARISON_OPTIONS;

const DUET_COST_COMMAND = {
  name: 'duet-cost',
  invocation: 'npm run duet-cost --',
  synopsis: '[options]',
  summary:
    "What duet costs each server: A/A comparisons in duet and sequential mode, CPU µs/request and req/s in each,\nand each injected change's size in both modes; writes duet-cost.md and duet-cost.json.",
  options: {
    // A memory-heavy server beside the default suite's.
    benchmark: {
      type: 'list',
      value: 'V:S:C',
      help: 'benchmarks as variant:scenario:connections',
      default: ['express-store:json:100', 'express:hello:100', 'fastify:hello:100', 'node-http:hello:100'],
    },
    rounds: { type: 'count', value: 'N', help: 'rounds of every comparison', default: 6 },
    'inject-loops': {
      type: 'count',
      value: 'N',
      help: 'a CPU-only change: division-loop iterations per request on the head side, measured in both modes',
    },
    'inject-objects': {
      type: 'count',
      value: 'N',
      help: 'an allocation-only change: small objects built and dropped per request on the head side, in both modes',
    },
    ...measurementOptions,
    out: { ...COMPARISON_OPTIONS.out, defaultText: 'results/<time>-duet-cost' },
  },
  check: (values) =>
    values.benchmark
      .filter((each) => each.split(':').length !== 3)
      .map((each) => `--benchmark: "${each}" is not variant:scenario:connections`),
};

await runCommand(DUET_COST_COMMAND, async ({ values }) => {
  const outDir = values.out ?? defaultResultsDir('duet-cost');
  const injections = [
    ...(values['inject-loops'] ? [{ name: 'loops', amount: values['inject-loops'] }] : []),
    ...(values['inject-objects'] ? [{ name: 'objects', amount: values['inject-objects'] }] : []),
  ];
  const results = [];
  for (const chosen of values.benchmark) {
    const [variantName, scenarioName, tier] = chosen.split(':');
    const request = comparisonRequest({
      ...values,
      variant: [variantName],
      scenario: [scenarioName],
      connections: [tier],
    });
    const { config } = await resolveSuite(request);
    results.push(
      await measureDuetCost({
        config,
        settings: request.settings,
        rounds: values.rounds,
        injections,
        outDir: join(outDir, chosen.replace(/:/g, '-')),
        onProgress: (line) => console.error(`${chosen}: ${line}`),
      }),
    );
  }
  const markdown = duetCostMarkdown(results);
  writeFileAtomicSync(join(outDir, 'duet-cost.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileAtomicSync(join(outDir, 'duet-cost.md'), markdown);
  console.log(markdown);
  console.log(`results: ${outDir}`);
});
