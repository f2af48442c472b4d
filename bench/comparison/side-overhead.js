// What one thing costs a server: a duet A/A of this checkout's own servers in which only the head
// has it. The CPU µs/request change is the overhead, with its interval (scripts/sandbox-overhead.mjs
// and scripts/agent-overhead.mjs print it). A measurement, not a test.
//   sandbox: the base unsandboxed, the head in the sandbox, both in the private network namespace a
//            sandboxed comparison runs in (so the sandbox is the only difference);
//   agent:   the head's Node.js processes with the runtime agent (bench/measurement/runtime-agent/),
//            the base's without; neither sandboxed.
import { fileURLToPath } from 'node:url';
import { resolveSuite } from '../config/resolve.js';
import { measureComparison } from './run-comparison.js';
import { sideOf } from './sides.js';
import { errors } from '../core/errors.js';
import { sandboxUnavailable, sideSandbox } from '../measurement/sandbox/bubblewrap.js';

const OWN_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

export const OVERHEADS = {
  sandbox: {
    what: "the sandbox's overhead",
    ratio: 'sandboxed / unsandboxed',
    summary:
      "The sandbox's cost: a duet A/A of this checkout's servers, unsandboxed vs sandboxed (bubblewrap),\nwith the ratio of CPU µs/request and req/s and their 95 % intervals.",
    // compare's flags that make no sense here: a profile run.
    leftOutFlags: ['profile'],
    sides() {
      const unavailable = sandboxUnavailable();
      if (unavailable) throw errors.sandboxRequired(unavailable);
      const boxed = sideOf('head', OWN_CHECKOUT, 'sandboxed', OWN_CHECKOUT);
      return {
        base: sideOf('base', OWN_CHECKOUT, 'not sandboxed', OWN_CHECKOUT),
        head: { ...boxed, sandbox: sideSandbox(boxed) },
      };
    },
  },
  agent: {
    what: "the runtime agent's overhead",
    ratio: 'with the agent / without',
    summary:
      "The runtime agent's cost (--runtime-metrics): a duet A/A of this checkout's servers, without vs with\nthe agent, with the ratio of CPU µs/request and req/s and their 95 % intervals.",
    // A profile run, and the flags that would put the agent on both sides.
    leftOutFlags: ['profile', 'runtime-metrics', 'soak-every', 'soak-requests'],
    sides: () => ({
      base: sideOf('base', OWN_CHECKOUT, 'without the runtime agent', OWN_CHECKOUT),
      head: {
        ...sideOf('head', OWN_CHECKOUT, 'with the runtime agent', OWN_CHECKOUT),
        runtimeAgent: { heapEveryMs: 0 },
      },
    }),
  },
};

/**
 * @param {'sandbox'|'agent'} kind  what the head has and the base has not (OVERHEADS)
 * @param {{request: object, outDir: string, onProgress?: Function}} run  request: comparisonRequest's
 * @returns {Promise<object>} the comparison (comparison.json's shape)
 */
export async function measureSideOverhead(kind, { request, outDir, onProgress }) {
  const sides = OVERHEADS[kind].sides();
  const { config } = await resolveSuite(request);
  return measureComparison({
    // The agent on one side only: --runtime-metrics would put it on both.
    config: { ...config, runtimeMetrics: false, soakEvery: 0 },
    sides,
    settings: { ...request.settings, profile: 'never' },
    outDir,
    onProgress,
  });
}

/**
 * An overhead measured on no benchmark is no measurement: every one skipped or failed throws
 * PG_NOTHING_MEASURED (exit 1) with each one's reason, after the comparison was written.
 * @param {object} comparison  measureSideOverhead's
 * @param {string} what  the overhead, as OVERHEADS names it
 */
export function requireMeasured(comparison, what) {
  if (comparison.benchmarks.some((benchmark) => benchmark.status === 'ok')) return;
  throw errors.nothingMeasured(what, comparison.benchmarks);
}
