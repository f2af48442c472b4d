// What a compare request measures: the suite (for a package, the variants that use it) and
// the two sides, made from perfgate's own checkout or from a user's repository.
import { resolveSuite } from '../config/resolve.js';
import { errors } from '../core/errors.js';
import { sideSandbox } from '../measurement/sandbox/bubblewrap.js';
import { builtInVariantNames, loadVariants } from '../measurement/variants.js';
import { stageRuntime } from '../measurement/runtime/cache.js';
import { describeRuntime, resolveRuntimes, SYSTEM, SYSTEM_RUNTIME } from '../measurement/runtime/resolve.js';
import { checkOverridable, lockfileOf, overridesOf } from './overrides.js';
import {
  checkGitSides,
  parsePackageSpec,
  prepareDependencySide,
  prepareGitSide,
  prepareOverrideSide,
  sideOf,
} from './sides.js';

/**
 * Each side's dependency overrides (perfgate.config's overrides.base/.head, then --base-override
 * and --override), checked against the tree that side installs before anything starts: an
 * override of a package the tree does not contain is an error.
 * @returns {{base: object, head: object}} npm `overrides` objects, maybe empty
 */
export function resolveSideOverrides(request) {
  const fromConfig = request.project?.config.overrides ?? {};
  const given = request.sideOverrides ?? { base: [], head: [] };
  const overrides = {
    base: overridesOf(fromConfig.base, given.base),
    head: overridesOf(fromConfig.head, given.head),
  };
  const repo = request.project?.root ?? request.repo;
  for (const label of ['base', 'head']) {
    if (!Object.keys(overrides[label]).length) continue;
    const ref = request.base ? request[label] : undefined;
    const what = ref ? `package-lock.json at ${ref}` : `${repo}/package-lock.json`;
    checkOverridable(overrides[label], lockfileOf(repo, ref), what);
  }
  return overrides;
}

const anyOverride = (overrides) => Object.values(overrides ?? {}).some((side) => Object.keys(side).length);

/**
 * Whether a comparison runs code under test, whose servers are sandboxed: commits, package
 * versions, and dependency overrides (a version, a tarball or a git URL: someone else's code,
 * however the maintainer chose it). The working tree on two runtimes is the project's own code,
 * trusted as bench trusts it.
 */
export const runsCodeUnderTest = (request) =>
  Boolean(request.base || request.dep || anyOverride(request.dependencyOverrides));

/**
 * Each side's runtime (--runtime for both, --vs-runtime for head), resolved, installed and
 * checked before any side is made or any server starts.
 * @returns {Promise<{base: object, head: object}>}
 */
export async function resolveSideRuntimes(request) {
  const base = request.runtime ?? SYSTEM;
  const head = request.vsRuntime ?? base;
  const [baseRuntime, headRuntime] = await resolveRuntimes([base, head]);
  const runtimes = { base: baseRuntime, head: headRuntime ?? baseRuntime };
  if (
    !request.base &&
    !request.dep &&
    !anyOverride(request.dependencyOverrides) &&
    runtimes.base.binary === runtimes.head.binary
  )
    throw errors.sameRuntimes(base, head, describeRuntime(runtimes.base));
  return runtimes;
}

// Each side on its runtime, named by it when it is not the default.
function onRuntimes(sides, runtimes) {
  const named = (side, runtime) => ({
    ...side,
    runtime,
    description: runtime.system ? side.description : `${side.description} on ${describeRuntime(runtime)}`,
  });
  return { base: named(sides.base, runtimes.base), head: named(sides.head, runtimes.head) };
}

// Both sides of a comparison that runs code under test (runsCodeUnderTest) are sandboxed: the
// head is the change, and the base of a package comparison, a --base branch or a base with
// overrides is no more trusted; a sandbox on one side only would also be a difference between
// them. runtimes: resolveSideRuntimes's; sandboxed: bench/measurement/sandbox sandboxDecision's.
export function prepareSides(
  request,
  work,
  perfgateRoot,
  runtimes = { base: SYSTEM_RUNTIME, head: SYSTEM_RUNTIME },
  { sandboxed = false, onProgress } = {},
) {
  if (!sandboxed) return onRuntimes(prepareCode(request, work, perfgateRoot, false, onProgress), runtimes);
  // A sandboxed side's runtime is linked into the work root, which its unprivileged uid can pass.
  const inWork = (runtime) => (runtime.system ? runtime : stageRuntime(runtime, work.root));
  const base = inWork(runtimes.base);
  const head = runtimes.head.binary === runtimes.base.binary ? base : inWork(runtimes.head);
  const sides = onRuntimes(prepareCode(request, work, perfgateRoot, true, onProgress), { base, head });
  return {
    base: { ...sides.base, sandbox: sideSandbox(sides.base) },
    head: { ...sides.head, sandbox: sideSandbox(sides.head) },
  };
}

// In a user's repository (a perfgate.config), the sides are made from it and installed its way
// (a commit's, in the sandbox when `sandboxed`).
function prepareCode(request, work, perfgateRoot, sandboxed, onProgress) {
  const projectRoot = request.project?.root ?? perfgateRoot;
  const copy = request.project?.copy;
  const overrides = request.dependencyOverrides ?? { base: {}, head: {} };
  // The same code on two runtimes: the project as it is, on both sides. With other dependencies:
  // each side a copy of it installed the same way (with its overrides, maybe none), so that the
  // overrides are the only difference between them.
  if (!request.base && !request.dep) {
    if (anyOverride(overrides)) {
      const side = (label) =>
        prepareOverrideSide({ label, work, projectRoot, copy, overrides: overrides[label], sandboxed });
      return { base: side('base'), head: side('head') };
    }
    const tree = sideOf('tree', projectRoot, 'the working tree', projectRoot);
    return { base: { ...tree, label: 'base' }, head: { ...tree, label: 'head' } };
  }
  if (request.dep) {
    if (parsePackageSpec(request.dep).name !== parsePackageSpec(request.vs).name)
      throw errors.badDependencyPair(request.dep, request.vs);
    const side = (label, spec, lockedFrom) =>
      prepareDependencySide({ spec, label, work, projectRoot, lockedFrom, copy, sandboxed });
    return { base: side('base', request.dep, request.depLock), head: side('head', request.vs, request.vsLock) };
  }
  const repo = request.project?.root ?? request.repo;
  const shas = checkGitSides(repo, request.base, request.head);
  const install = request.project?.install;
  const side = (label, ref) =>
    prepareGitSide({
      repo,
      sha: shas[label],
      ref,
      label,
      work,
      projectRoot,
      install,
      copy,
      overrides: overrides[label],
      sandboxed,
      onProgress,
    });
  return { base: side('base', request.base), head: side('head', request.head) };
}

// A package comparison measures only the variants that use the package, unless told otherwise.
function affectedVariants(variants, packageName) {
  const affected = variants.filter((variant) => variant.packages.includes(packageName) && variant.role !== 'backend');
  if (!affected.length)
    throw errors.noAffectedVariant(
      packageName,
      variants.map((variant) => `${variant.name} (${variant.packages.join(', ') || 'none'})`).join('; '),
    );
  return affected.map((variant) => variant.name);
}

// A project's comparison of a package measures its own servers (any of them may use it).
export async function resolveComparedSuite(request) {
  if (!request.dep || request.overrides.variants || request.project) return resolveSuite(request);
  const variants = affectedVariants(await loadVariants(builtInVariantNames(), {}), parsePackageSpec(request.dep).name);
  return resolveSuite({ ...request, overrides: { ...request.overrides, variants } });
}
