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

const SUMMARIES = {
  sandbox:
    "The sandbox's cost: a duet A/A of this checkout's servers, unsandboxed vs sandboxed (bubblewrap),\nwith the ratio of CPU µs/request and req/s and their 95 % intervals.",
  agent:
    "The runtime agent's cost (--runtime-metrics): a duet A/A of this checkout's servers, without vs with\nthe agent, with the ratio of CPU µs/request and req/s and their 95 % intervals.",
};

// Flags that would make no sense: a profile run, and for the agent the flags that put it on both sides.
const LEFT_OUT = { sandbox: ['profile'], agent: ['profile', 'runtime-metrics', 'soak-every', 'soak-requests'] };

const ratio = (verdict) =>
  verdict?.change === null || verdict?.change === undefined
    ? 'n/a'
    : `${(1 + verdict.change).toFixed(3)} (95 % CI ${verdict.ci ? verdict.ci.map((end) => (1 + end).toFixed(3)).join(' … ') : 'n/a'})`;

/** @param {'sandbox'|'agent'} kind  what the head has and the base has not */
export async function runOverheadCommand(kind) {
  const options = Object.fromEntries(
    Object.entries(COMPARISON_OPTIONS).filter(([flag]) => !LEFT_OUT[kind].includes(flag)),
  );
  const name = `${kind}-overhead`;
  const { what, ratio: label } = OVERHEADS[kind];
  const command = {
    name,
    invocation: `npm run ${name} --`,
    synopsis: '[options]',
    summary: SUMMARIES[kind],
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
