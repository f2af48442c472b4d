// Runtimes as a setting of a side and of a benchmark: "system" (the Node.js that runs perfgate)
// or a Node.js or Bun version from the npm registry, resolved to the newest matching published
// version, installed into the per-user cache (./cache.js) and checked with `--version` before
// any server starts. The harness and the load engine always stay on the harness's own Node;
// only the servers (and what they start: cluster workers, the profile agent) change runtime.
import { dirname, join } from 'node:path';
import { errors } from '../../core/errors.js';
import { cachedEntry, cachedVersions, installRuntime, runtimeCacheDir, versionProblem } from './cache.js';
import { RUNTIME_KINDS } from './kinds.js';
import { publishedVersions } from './registry.js';
import { newestMatching, parseRuntimeList, parseRuntimeSpec, SYSTEM } from './spec.js';

export { parseRuntimeList, parseRuntimeSpec, runtimeCacheDir, SYSTEM };

// The runtime perfgate itself runs on: today's behaviour, and the default.
export const SYSTEM_RUNTIME = Object.freeze({
  spec: SYSTEM,
  name: 'node',
  version: process.versions.node,
  binary: process.execPath,
  system: true,
});

/** What a result records of a runtime: as asked for, as installed (no local paths). */
export const runtimeRecord = ({ spec, name, version, package: pkg }) => ({
  spec,
  name,
  version,
  ...(pkg ? { package: pkg } : {}),
});

const label = (runtime) => `${runtime.name} ${runtime.version}`;
/** "node 24.1.0", or "system (node 20.19.0)" for the default. */
export const describeRuntime = (runtime = SYSTEM_RUNTIME) =>
  runtime.system ? `system (${label(runtime)})` : label(runtime);

// The newest version within the range: the registry's answer, or what the cache holds when the
// registry cannot be reached (said on stderr); an exact version already cached needs no registry.
async function pickVersion(spec, pkg, cacheDir) {
  const cached = cachedVersions(cacheDir, pkg);
  if (spec.exact && cached.includes(spec.range)) return spec.range;
  const published = await publishedVersions(pkg);
  if (published.ok) {
    const newest = newestMatching(published.versions, spec.range);
    if (!newest) throw errors.runtimeNotPublished(spec.text, pkg, newestMatching(published.versions, '*'));
    return newest;
  }
  if (published.code === 'E404') throw errors.runtimeNotPublished(spec.text, pkg, null);
  const fallback = newestMatching(cached, spec.range);
  if (!fallback) throw errors.runtimeRegistryUnreachable(spec.text, published.detail, cacheDir);
  console.error(`${spec.text}: the npm registry did not answer (${published.detail}); using the cached ${fallback}`);
  return fallback;
}

/**
 * Resolves, installs when needed and checks one runtime.
 * @param {string} text  "system", "node@24", "bun@1.3", ...
 * @returns {Promise<{spec: string, name: string, version: string, binary: string, package?: string, system?: true}>}
 */
export async function resolveRuntime(text, { cacheDir = runtimeCacheDir() } = {}) {
  const spec = parseRuntimeSpec(text);
  if (spec.system) return SYSTEM_RUNTIME;
  const kind = RUNTIME_KINDS[spec.name];
  const pkg = kind.package();
  const version = await pickVersion(spec, pkg, cacheDir);
  const runtime = { spec: spec.text, name: spec.name, version, package: pkg };
  const installed = cachedEntry(cacheDir, pkg, version);
  if (!cachedVersions(cacheDir, pkg).includes(version))
    await installRuntime({ cacheDir, pkg, version, kind, label: spec.text });
  const binary = join(installed, kind.executable);
  const problem = await versionProblem(binary, version, kind.versionOf);
  if (problem) throw errors.runtimeBroken(spec.text, `${problem} (remove ${installed} to install it again)`);
  return { ...runtime, binary };
}

/** Each runtime of a list once, resolved one after the other (a download at a time). */
export async function resolveRuntimes(texts, options) {
  const resolved = [];
  for (const spec of parseRuntimeList(texts)) resolved.push(await resolveRuntime(spec.text, options));
  return resolved;
}

/**
 * A server's argv and environment on `runtime` (step 2 of the side launch, bench/measurement/process/server.js):
 * the harness's Node in the command replaced by the runtime's binary, and the runtime's bin
 * directory first on PATH, so that `node server.js`, `npm start` and cluster workers run on it.
 */
export function onRuntime(command, env, runtime = SYSTEM_RUNTIME) {
  if (runtime.system) return { command, env };
  const binDir = dirname(runtime.binary);
  return {
    command: command[0] === process.execPath ? [runtime.binary, ...command.slice(1)] : command,
    env: { ...env, PATH: [binDir, env.PATH ?? process.env.PATH].filter(Boolean).join(':') },
  };
}
