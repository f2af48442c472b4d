// What the upgrade gate compares: the framework packages whose installed version differs
// between the base's package-lock.json and the pull request's. .github/dependabot.yml groups
// the same packages, so one dependabot pull request bumps them together.
import { githubErrors } from '../errors.js';

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
  if (typeof lock?.packages !== 'object' || lock.packages === null)
    throw githubErrors.badLockfile(what, 'has no "packages" map');
  const versions = {};
  for (const name of names) {
    const entry = lock.packages[`node_modules/${name}`];
    if (typeof entry?.version === 'string' && (entry.name ?? name) === name) versions[name] = entry.version;
  }
  return versions;
}

// [{ name, from, to }] for each framework (or package of `names`) installed on both sides at
// different versions. A project's gate watches its own direct dependencies.
export function changedFrameworks(baseLock, headLock, names = FRAMEWORK_PACKAGES) {
  const before = lockedVersions(baseLock, 'the base package-lock.json', names);
  const after = lockedVersions(headLock, "the pull request's package-lock.json", names);
  return names
    .filter((name) => before[name] && after[name] && before[name] !== after[name])
    .map((name) => ({ name, from: before[name], to: after[name] }));
}

// "@hono/node-server" -> "hono-node-server": a file-name part for its comparison.
export const packageSlug = (name) =>
  name
    .replace(/^@/, '')
    .replace(/[^a-z0-9._-]/gi, '-')
    .toLowerCase();

// One `npm run compare` per upgraded framework; compare picks the variants that use it.
export function comparisonRuns(changes, workDir, compareArgs = []) {
  return changes.map((change) => {
    const slug = packageSlug(change.name);
    const outDir = `${workDir}/${slug}`;
    return {
      ...change,
      slug,
      outDir,
      args: [
        '--dep',
        `${change.name}@${change.from}`,
        '--vs',
        `${change.name}@${change.to}`,
        '--out',
        outDir,
        ...compareArgs,
      ],
    };
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
