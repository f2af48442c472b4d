// npm lockfiles (package-lock.json, lockfileVersion 2 or 3) as the upgrade gate trusts them: the
// version a lockfile installs at the top, and one package's dependency closure as a lockfile of
// its own, which `npm ci` installs exactly as locked (never re-resolving). Every entry of a
// closure must be an exact version from the npm registry with the lockfile's `integrity`: a
// remote tarball, a git URL, a local path or link, or an entry without integrity is refused
// with a clear error, before anything is installed. Node built-ins only (the request job that
// reads lockfiles installs nothing).
import { githubErrors } from '../core/errors.js';

export const NPM_REGISTRY = 'https://registry.npmjs.org/';
// An exact semver version (no range, tag, URL or path): what `npm ci` installs without choosing.
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
// Subresource integrity with sha512 (what the registry serves for every package); sha1 is too weak.
const INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;
const PREFIX = 'node_modules/';

// The `packages` map of a lockfile (v1 has none), or a clear error.
export function lockPackages(lock, what) {
  if (typeof lock?.packages !== 'object' || lock.packages === null)
    throw githubErrors.badLockfile(what, 'has no "packages" map');
  return lock.packages;
}

// The package name a lockfile key installs: the entry's own name for an alias ("express4" -> express).
const installedName = (key, entry) => entry.name ?? key.slice(key.lastIndexOf(PREFIX) + PREFIX.length);

// The registry's tarball address of name@version: https://registry.npmjs.org/@scope/pkg/-/pkg-1.2.3.tgz
export const registryTarball = (name, version, registry = NPM_REGISTRY) =>
  `${registry}${name}/-/${name.split('/').pop()}-${version}.tgz`;

// Why the entry at `key` is not an exact registry version with integrity, or null when it is.
export function untrustedReason(key, entry, registry = NPM_REGISTRY) {
  if (entry.link || entry.resolved?.startsWith('file:')) return `a local path (${entry.resolved ?? 'link'})`;
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|ssh:)/.test(entry.resolved ?? ''))
    return `a git URL (${entry.resolved})`;
  if (typeof entry.version !== 'string' || !EXACT_VERSION.test(entry.version))
    return `version ${JSON.stringify(entry.version ?? null)}, not an exact registry version`;
  const name = installedName(key, entry);
  // No `resolved` (npm's omit-lockfile-registry-resolved): the configured registry's tarball.
  if (entry.resolved !== undefined && entry.resolved !== registryTarball(name, entry.version, registry))
    return `a remote tarball (${entry.resolved}), not ${registryTarball(name, entry.version, registry)}`;
  if (!INTEGRITY.test(entry.integrity ?? ''))
    return entry.integrity ? `integrity ${entry.integrity}, not sha512` : 'no integrity';
  return null;
}

// The entry a dependency of the package at `from` resolves to, the way Node finds it: the
// nearest node_modules/<name> at or above `from`.
function resolveFrom(packages, from, name) {
  for (let path = from; ; ) {
    const key = `${path ? `${path}/` : ''}${PREFIX}${name}`;
    if (packages[key]) return key;
    if (!path) return null;
    const at = path.lastIndexOf(`/${PREFIX}`);
    path = at === -1 ? '' : path.slice(0, at);
  }
}

/**
 * The lockfile that installs `name` (locked at the top of `lock`) and everything it needs,
 * exactly as `lock` locks them, at the same places: `{ version, lockfile }`, where `lockfile`
 * is a package-lock.json (v3) of a project whose only dependency is name@version. Throws a
 * clear error for an entry that is not an exact registry version with integrity, and for a
 * required dependency the lockfile lacks.
 */
export function packageClosure(lock, name, what, registry = NPM_REGISTRY) {
  const packages = lockPackages(lock, what);
  const top = `${PREFIX}${name}`;
  if (!packages[top] || installedName(top, packages[top]) !== name)
    throw githubErrors.badLockfile(what, `does not install ${name} at the top (no "${top}" entry of that package)`);
  const closure = {};
  const pending = [top];
  while (pending.length) {
    const key = pending.pop();
    if (closure[key]) continue;
    const entry = packages[key];
    const reason = untrustedReason(key, entry, registry);
    if (reason) throw githubErrors.untrustedLockEntry(what, key, reason);
    const { dev, devOptional, ...kept } = entry; // the closure is the new project's production tree
    closure[key] = kept;
    const optional = new Set([
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta?.optional)
        .map(([dependency]) => dependency),
    ]);
    const needs = { ...entry.peerDependencies, ...entry.optionalDependencies, ...entry.dependencies };
    for (const dependency of Object.keys(needs)) {
      const found = resolveFrom(packages, key, dependency);
      if (found) pending.push(found);
      else if (!optional.has(dependency))
        throw githubErrors.badLockfile(
          what,
          `locks no ${dependency}, which ${key} needs: regenerate it with npm install`,
        );
    }
  }
  const version = packages[top].version;
  return {
    version,
    lockfile: {
      name: 'perfgate-locked-side',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'perfgate-locked-side', dependencies: { [name]: version } }, ...closure },
    },
  };
}

// A dependency spec npm would fetch from somewhere other than the registry (git, a URL, a path).
const NON_REGISTRY_SPEC =
  /^(git\+|git:|github:|gitlab:|bitbucket:|gist:|ssh:|https?:|file:|link:|\.{1,2}\/|\/|~\/)|^[^@:/\s]+\/[^/\s]+(#.*)?$/;

// The project's overrides with each `$name` reference replaced by that dependency's spec in the
// manifest, as npm reads them: the closure's project has none of those dependencies itself.
function resolvedOverrides(overrides, manifest) {
  const specs = {
    ...manifest.peerDependencies,
    ...manifest.optionalDependencies,
    ...manifest.devDependencies,
    ...manifest.dependencies,
  };
  const resolve = (value) =>
    typeof value === 'string'
      ? value.startsWith('$')
        ? (specs[value.slice(1)] ?? value)
        : value
      : Object.fromEntries(Object.entries(value ?? {}).map(([key, each]) => [key, resolve(each)]));
  return resolve(overrides ?? {});
}

// Every [key path, spec] of an overrides object, nested ones included (".": the key's own spec).
const overrideSpecs = (overrides, path = []) =>
  Object.entries(overrides).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? overrideSpecs(value, [...path, key])
      : [[[...path, key].join(' > '), String(value)]],
  );

const overriddenNames = (overrides) =>
  Object.entries(overrides).flatMap(([key, value]) => [
    key.replace(/(.)@.*$/, '$1'),
    ...(typeof value === 'object' ? overriddenNames(value) : []),
  ]);

/**
 * The package.json and package-lock.json that make `npm ci` install `name` exactly as the side's
 * lockfile and manifest (its overrides) lock it: `{ version, manifest, lockfile }`. A dependency
 * that a closure entry asks for from git, a URL or a path, and that no override points at a
 * locked registry version, is refused: npm ci would fetch it to check the lockfile against it.
 */
export function lockedSide({ lock, manifest = {}, name, what, registry = NPM_REGISTRY }) {
  const closure = packageClosure(lock, name, what, registry);
  const overrides = resolvedOverrides(manifest.overrides, manifest);
  // An override that names git, a URL or a path would make npm fetch it while checking the lockfile.
  for (const [key, spec] of overrideSpecs(overrides))
    if (NON_REGISTRY_SPEC.test(spec))
      throw githubErrors.untrustedLockEntry(
        `${what}'s package.json`,
        `overrides ${key}`,
        `${spec}, which npm would fetch`,
      );
  const overridden = new Set(overriddenNames(overrides));
  for (const [key, entry] of Object.entries(closure.lockfile.packages)) {
    const needs = { ...entry.peerDependencies, ...entry.optionalDependencies, ...entry.dependencies };
    for (const [dependency, spec] of Object.entries(needs))
      if (NON_REGISTRY_SPEC.test(spec) && !overridden.has(dependency))
        throw githubErrors.untrustedLockEntry(what, key, `a dependency ${dependency}@${spec}, which npm would fetch`);
  }
  return {
    version: closure.version,
    lockfile: closure.lockfile,
    manifest: {
      name: 'perfgate-locked-side',
      private: true,
      dependencies: closure.lockfile.packages[''].dependencies,
      ...(Object.keys(overrides).length ? { overrides } : {}),
    },
  };
}

// Problems of an installed tree (npm's node_modules/.package-lock.json) against the lockfile it
// was installed from: anything npm added or changed instead of installing it as locked.
export function installedDifferences(installed, lockfile) {
  const wanted = lockfile.packages;
  const problems = [];
  for (const [key, entry] of Object.entries(installed?.packages ?? {})) {
    if (!key) continue;
    const locked = wanted[key];
    if (!locked) problems.push(`${key} was installed but is not locked`);
    else if (locked.version !== entry.version || locked.integrity !== entry.integrity)
      problems.push(`${key} is ${entry.version}, locked ${locked.version}`);
  }
  const top = Object.keys(wanted['']?.dependencies ?? {}).map((dependency) => `${PREFIX}${dependency}`);
  for (const key of top) if (!installed?.packages?.[key]) problems.push(`${key} was not installed`);
  return problems;
}
