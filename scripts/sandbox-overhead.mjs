#!/usr/bin/env node
// `npm run sandbox-overhead`: what running a side in the sandbox costs, as a duet A/A of this
// checkout's servers, unsandboxed (base) against sandboxed (head), in the same private network
// namespace; prints the ratio sandboxed / unsandboxed of CPU µs/request and req/s with their
// 95 % intervals (bench/comparison/sandbox-overhead.js). A measurement, not a test. Exit 1
// (PG_NOTHING_MEASURED) when no benchmark was measured: every one skipped or failed.
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { writeComparison } from '../bench/comparison/write.js';
import { defaultResultsDir } from '../bench/results/write.js';
import { measureSandboxOverhead, requireMeasured } from '../bench/comparison/sandbox-overhead.js';

const { profile, ...options } = COMPARISON_OPTIONS;
const OVERHEAD_COMMAND = {
  name: 'sandbox-overhead',
  invocation: 'npm run sandbox-overhead --',
  synopsis: '[options]',
  summary:
    "The sandbox's cost: a duet A/A of this checkout's servers, unsandboxed vs sandboxed (bubblewrap),\nwith the ratio of CPU µs/request and req/s and their 95 % intervals.",
  options: {
    ...options,
    variant: { ...options.variant, default: ['node-http'] },
    scenario: { ...options.scenario, default: ['hello'] },
    connections: { ...options.connections, default: ['100'] },
    out: { ...options.out, defaultText: 'results/<time>-sandbox-overhead' },
  },
};

const ratio = (verdict) =>
  verdict?.change === null || verdict?.change === undefined
    ? 'n/a'
    : `${(1 + verdict.change).toFixed(3)} (95 % CI ${verdict.ci ? verdict.ci.map((end) => (1 + end).toFixed(3)).join(' … ') : 'n/a'})`;

await runCommand(OVERHEAD_COMMAND, async ({ values }) => {
  const request = comparisonRequest(values);
  const outDir = request.outDir ?? defaultResultsDir('sandbox-overhead');
  const comparison = await measureSandboxOverhead({ request, outDir, onProgress: (line) => console.error(line) });
  writeComparison(comparison, outDir);
  for (const benchmark of comparison.benchmarks) {
    if (benchmark.status !== 'ok') {
      console.log(`${benchmark.id}: ${benchmark.status}: ${benchmark.reason}`);
      continue;
    }
    console.log(
      `${benchmark.id}, ${benchmark.rounds} duet rounds: sandboxed / unsandboxed CPU µs/request ${ratio(benchmark.verdicts['CPU µs/request'])}, req/s ${ratio(benchmark.verdicts['req/s'])}`,
    );
  }
  console.log(`results: ${outDir}`);
  requireMeasured(comparison);
});
