// What the upgrade gate compares: the framework packages whose installed version differs
// between the base's package-lock.json and the pull request's, each to be measured old vs new
// with the dependency closure its own lockfile locks (bench/comparison/lockfile.js: exact registry versions
// with integrity only, installed by npm ci, never re-resolved). .github/dependabot.yml groups the
// same packages, so one dependabot pull request bumps them together. Node built-ins only.
//
// An upgrade has a kind; UPGRADE_KINDS says how each kind is named and measured: packages
// (changedFrameworks) and the Node.js runtime (changedRuntime, bench/github/runtime-upgrade.js).
import { githubErrors } from '../core/errors.js';
import { lockPackages, packageClosure } from '../comparison/lockfile.js';

export const FRAMEWORK_PACKAGES = [
  'express',
  'fastify',
  'koa',
  '@koa/router',
  'hono',
  '@hono/node-server',
  'h3',
  'ultimate-express',
  'hyper-express',
];

// name -> installed version of the framework packages (or `names`) a lockfile (v2 or v3) installs
// at the top. An alias (e.g. "express4": "npm:express@4") is another package under that name: left out.
export function lockedVersions(lock, what, names = FRAMEWORK_PACKAGES) {
  const packages = lockPackages(lock, what);
  const versions = {};
  for (const name of names) {
    const entry = packages[`node_modules/${name}`];
    if (typeof entry?.version === 'string' && (entry.name ?? name) === name) versions[name] = entry.version;
  }
  return versions;
}

const BASE_LOCK = 'the base package-lock.json';
const HEAD_LOCK = "the pull request's package-lock.json";

// [{ kind: 'package', name, from, to }] for each framework (or package of `names`) installed on
// both sides at different versions. Throws when either side locks it, or anything it needs, as
// other than an exact registry version with integrity (bench/comparison/lockfile.js), so that nothing is
// dispatched or installed for it. A project's gate watches its own direct dependencies.
export function changedFrameworks(baseLock, headLock, names = FRAMEWORK_PACKAGES) {
  const before = lockedVersions(baseLock, BASE_LOCK, names);
  const after = lockedVersions(headLock, HEAD_LOCK, names);
  const changed = names.filter((name) => before[name] && after[name] && before[name] !== after[name]);
  for (const name of changed) {
    packageClosure(baseLock, name, BASE_LOCK);
    packageClosure(headLock, name, HEAD_LOCK);
  }
  return changed.map((name) => ({ kind: 'package', name, from: before[name], to: after[name] }));
}

// "@hono/node-server" -> "hono-node-server": a file-name part for its comparison.
export const packageSlug = (name) =>
  name
    .replace(/^@/, '')
    .replace(/[^a-z0-9._-]/gi, '-')
    .toLowerCase();

// How each kind of upgrade is named (in file names) and measured by npm run compare, given the
// directories holding each side's package.json and package-lock.json.
const UPGRADE_KINDS = {
  // compare picks the variants that use the package and installs each version exactly as its
  // side's lockfile locks it and what it needs (never re-resolved).
  package: {
    slug: (change) => packageSlug(change.name),
    compareArgs: (change, sides) => [
      '--dep',
      `${change.name}@${change.from}`,
      '--dep-lock',
      sides.base,
      '--vs',
      `${change.name}@${change.to}`,
      '--vs-lock',
      sides.head,
    ],
  },
  // The project's own checkout on the old and the new Node.js, each from the npm registry.
  runtime: {
    slug: (change) => `${change.name}-runtime`,
    compareArgs: (change) => [
      '--runtime',
      `${change.name}@${change.from}`,
      '--vs-runtime',
      `${change.name}@${change.to}`,
    ],
  },
};

// One `npm run compare` per upgrade: its slug, out directory and options. sides: { base, head },
// the directories of each side's package.json and package-lock.json.
export function comparisonRuns(changes, workDir, compareArgs = [], sides = {}) {
  return changes.map((change) => {
    const kind = UPGRADE_KINDS[change.kind];
    const slug = kind.slug(change);
    const outDir = `${workDir}/${slug}`;
    return { ...change, slug, outDir, args: [...kind.compareArgs(change, sides), '--out', outDir, ...compareArgs] };
  });
}

// A lockfile of a commit read through the REST API, without checking anything out or installing:
// its blob id from the contents API, then the blob (the contents API leaves files over 1 MB empty).
export async function lockfileAt({ api, repository, sha, what }) {
  const entry = await api.request('GET', `/repos/${repository}/contents/package-lock.json?ref=${sha}`, undefined, {
    allow: [404],
  });
  if (!entry?.sha) throw githubErrors.badLockfile(what, `does not exist at ${sha}`);
  const blob = await api.request('GET', `/repos/${repository}/git/blobs/${entry.sha}`);
  try {
    return JSON.parse(Buffer.from(blob.content, 'base64').toString('utf8'));
  } catch {
    throw githubErrors.badLockfile(what, 'is not JSON');
  }
}
