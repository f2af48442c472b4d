// What a compare request measures: the suite (for a package, the variants that use it) and
// the two sides, made from perfgate's own checkout or from a user's repository.
import { resolveSuite } from '../config/resolve.js';
import { errors } from '../errors.js';
import { builtInVariantNames, loadVariants } from '../variants.js';
import { checkGitSides, parsePackageSpec, prepareDependencySide, prepareGitSide } from './sides.js';

// In a user's repository (a perfgate.config), the sides are made from it and installed its way.
export function prepareSides(request, work, perfgateRoot) {
  const projectRoot = request.project?.root ?? perfgateRoot;
  if (request.dep) {
    if (parsePackageSpec(request.dep).name !== parsePackageSpec(request.vs).name)
      throw errors.badDependencyPair(request.dep, request.vs);
    return {
      base: prepareDependencySide({ spec: request.dep, label: 'base', work, projectRoot, lockedFrom: request.depLock }),
      head: prepareDependencySide({ spec: request.vs, label: 'head', work, projectRoot, lockedFrom: request.vsLock }),
    };
  }
  const repo = request.project?.root ?? request.repo;
  const shas = checkGitSides(repo, request.base, request.head);
  const install = request.project?.install;
  return {
    base: prepareGitSide({ repo, sha: shas.base, ref: request.base, label: 'base', work, projectRoot, install }),
    head: prepareGitSide({ repo, sha: shas.head, ref: request.head, label: 'head', work, projectRoot, install }),
  };
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
