// The command of `npm run sandbox-overhead` and `npm run agent-overhead`: a duet A/A of this
// checkout's servers in which only the head has the sandbox, or the runtime agent
// (bench/comparison/side-overhead.js); prints the ratio head / base of CPU µs/request and req/s with
// their 95 % intervals. A measurement, not a test. Exit 1 (PG_NOTHING_MEASURED) when no benchmark
// was measured: every one skipped or failed.
import { COMPARISON_OPTIONS, comparisonRequest } from './compare-command.js';
import { runCommand } from './run.js';
import { writeComparison } from '../comparison/write.js';
import { defaultResultsDir } from '../results/write.js';
import { measureSideOverhead, OVERHEADS, requireMeasured } from '../comparison/side-overhead.js';

const ratio = (verdict) =>
  verdict?.change === null || verdict?.change === undefined
    ? 'n/a'
    : `${(1 + verdict.change).toFixed(3)} (95 % CI ${verdict.ci ? verdict.ci.map((end) => (1 + end).toFixed(3)).join(' … ') : 'n/a'})`;

/** @param {'sandbox'|'agent'} kind  what the head has and the base has not */
export async function runOverheadCommand(kind) {
  const { what, ratio: label, summary, leftOutFlags } = OVERHEADS[kind];
  const options = Object.fromEntries(
    Object.entries(COMPARISON_OPTIONS).filter(([flag]) => !leftOutFlags.includes(flag)),
  );
  const name = `${kind}-overhead`;
  const command = {
    name,
    invocation: `npm run ${name} --`,
    synopsis: '[options]',
    summary,
    options: {
      ...options,
      variant: { ...options.variant, default: ['node-http'] },
      scenario: { ...options.scenario, default: ['hello'] },
      connections: { ...options.connections, default: ['100'] },
      out: { ...options.out, defaultText: `results/<time>-${name}` },
    },
  };
  await runCommand(command, async ({ values }) => {
    const request = comparisonRequest(values);
    const outDir = request.outDir ?? defaultResultsDir(name);
    const comparison = await measureSideOverhead(kind, { request, outDir, onProgress: (line) => console.error(line) });
    writeComparison(comparison, outDir);
    for (const benchmark of comparison.benchmarks) {
      if (benchmark.status !== 'ok') {
        console.log(`${benchmark.id}: ${benchmark.status}: ${benchmark.reason}`);
        continue;
      }
      console.log(
        `${benchmark.id}, ${benchmark.rounds} duet rounds: ${label} CPU µs/request ${ratio(benchmark.verdicts['CPU µs/request'])}, req/s ${ratio(benchmark.verdicts['req/s'])}`,
      );
    }
    console.log(`results: ${outDir}`);
    requireMeasured(comparison, what);
  });
}
