// A variant on a runtime: its launch carries the runtime (applied where a server's argv is
// composed, bench/process/server.js), and what the runtime cannot run is said as a reason the
// benchmark is skipped with: a built-in variant that starts a program of its own (Go, Java,
// nginx's own binary) has no JavaScript to put on another runtime, and Bun's undici is a stub.
import { RUNTIME_KINDS } from './kinds.js';

function runtimeProblem(variant, runtime) {
  if (runtime.system || variant.kind !== 'builtin') return null;
  if (variant.launch.command[0] !== process.execPath)
    return `it starts a program of its own (${variant.launch.command[0]}), not JavaScript: runtime ${runtime.spec} does not apply`;
  return null;
}

/**
 * @param {object} variant  from bench/variants.js, described on `runtime` (its `unavailable` says
 *   what that runtime could not load, a native addon of another ABI for one)
 * @param {object} runtime  from resolveRuntime (bench/runtime/index.js)
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
