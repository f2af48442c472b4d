// What the sandbox costs: a duet A/A of this checkout's own servers, the base unsandboxed and
// the head in the sandbox, both in the private network namespace a sandboxed comparison runs in
// (so the sandbox is the only difference). The CPU µs/request change is the overhead, with its
// interval (scripts/sandbox-overhead.mjs prints it). A measurement, not a test.
import { fileURLToPath } from 'node:url';
import { resolveSuite } from '../config/resolve.js';
import { measureComparison } from './run-comparison.js';
import { sideOf } from './sides.js';
import { errors } from '../core/errors.js';
import { sandboxUnavailable, sideSandbox } from '../measurement/sandbox/bubblewrap.js';

const OWN_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * @param {{request: object, outDir: string, onProgress?: Function}} run  request: comparisonRequest's
 * @returns {Promise<object>} the comparison (comparison.json's shape)
 */
export async function measureSandboxOverhead({ request, outDir, onProgress }) {
  const unavailable = sandboxUnavailable();
  if (unavailable) throw errors.sandboxRequired(unavailable);
  const { config } = await resolveSuite(request);
  const plain = sideOf('base', OWN_CHECKOUT, 'not sandboxed', OWN_CHECKOUT);
  const boxed = sideOf('head', OWN_CHECKOUT, 'sandboxed', OWN_CHECKOUT);
  return measureComparison({
    config,
    sides: { base: plain, head: { ...boxed, sandbox: sideSandbox(boxed) } },
    settings: { ...request.settings, profile: 'never' },
    outDir,
    onProgress,
  });
}

/**
 * An overhead measured on no benchmark is no measurement: every one skipped or failed throws
 * PG_NOTHING_MEASURED (exit 1) with each one's reason, after the comparison was written.
 * @param {object} comparison  measureSandboxOverhead's
 */
export function requireMeasured(comparison) {
  if (comparison.benchmarks.some((benchmark) => benchmark.status === 'ok')) return;
  throw errors.nothingMeasured("the sandbox's overhead", comparison.benchmarks);
}
