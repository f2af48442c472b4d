// A variant on a runtime: its launch carries the runtime (applied where a server's argv is
// composed, bench/measurement/process/server.js), and what the runtime cannot run is said as a reason the
// benchmark is skipped with: a built-in variant that starts a program of its own (Go, Java,
// nginx's own binary) has no JavaScript to put on another runtime, and Bun's undici is a stub.
import { PerfgateError } from '../../core/errors.js';
import { resolveRuntime } from './resolve.js';
import { RUNTIME_KINDS } from './kinds.js';

function runtimeProblem(variant, runtime) {
  if (runtime.system || variant.kind !== 'builtin') return null;
  if (variant.launch.command[0] !== process.execPath)
    return `it starts a program of its own (${variant.launch.command[0]}), not JavaScript: runtime ${runtime.spec} does not apply`;
  return null;
}

/**
 * @param {object} variant  from bench/measurement/variants.js, described on `runtime` (its `unavailable` says
 *   what that runtime could not load, a native addon of another ABI for one)
 * @param {object} runtime  from resolveRuntime (bench/measurement/runtime/resolve.js)
 */
export function variantOnRuntime(variant, runtime) {
  const kind = RUNTIME_KINDS[runtime.name];
  const problem = runtimeProblem(variant, runtime);
  const narrowed = kind.proxyClients && variant.proxyClients?.filter((client) => kind.proxyClients.includes(client));
  return {
    ...variant,
    runtime: runtime.spec,
    launch: { ...variant.launch, runtime },
    unavailable: problem ?? variant.unavailable ?? null,
    ...(narrowed && narrowed.length < variant.proxyClients.length
      ? { proxyClients: narrowed, proxyClientNote: kind.proxyClientNote }
      : {}),
  };
}

/**
 * The variants as a benchmark on `runtime` runs them. A variant that names a runtime of its own
 * (express-bun) runs there instead of on the default runtime, and on no other.
 * @param {object[]} variants  described on `runtime`
 * @param {object} runtime  from resolveRuntime
 * @param {(names: string[], runtime: object) => Promise<object[]>} describeOn  the variants
 *   `names` described on a runtime (the describe step runs on it)
 * @returns {Promise<object[]>} in the order given
 */
export async function placeOnRuntime(variants, runtime, describeOn) {
  const placed = await Promise.all(
    variants.map(async (variant) => {
      if (!variant.ownRuntime) return variantOnRuntime(variant, runtime);
      if (!runtime.system)
        return {
          ...variantOnRuntime(variant, runtime),
          unavailable: `it runs on ${variant.ownRuntime} only; another runtime is --runtime on the variant it is made of`,
        };
      // Its runtime not installable here (no registry, no build for this platform): skipped, the
      // rest of the suite runs, as for a variant whose toolchain is missing.
      let own;
      try {
        own = await resolveRuntime(variant.ownRuntime);
      } catch (error) {
        if (!(error instanceof PerfgateError)) throw error;
        return { ...variantOnRuntime(variant, runtime), runtime: variant.ownRuntime, unavailable: error.message };
      }
      const [onOwn] = await describeOn([variant.name], own);
      return variantOnRuntime(onOwn, own);
    }),
  );
  // slot: the runtime of the benchmarks it serves (a variant of its own runtime runs elsewhere).
  return placed.map((variant) => ({ ...variant, slot: runtime.spec }));
}
