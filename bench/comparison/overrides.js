// Dependency overrides of a side (compare --override/--base-override, perfgate.config's
// "overrides"): npm's `overrides` written into the side's package.json and installed by npm, so
// that every copy of the package in the tree changes, nested ones too. A spec is a version or
// range, a `file:` tarball or directory, or a git URL: the maintainer's choice on their own
// machine (the upgrade gate never takes this path; it installs exact registry versions only,
// bench/comparison/lockfile.js). Also what changed between two sides' resolved lockfiles, for the report.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, rmSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { errors } from '../core/errors.js';
import { gitResult } from '../core/git.js';
import { readInputJson, readPlainJson, readPlainText } from '../core/read-file.js';
import { installSandboxed } from '../measurement/sandbox/install.js';
import { installFailure } from './install-output.js';

const PREFIX = 'node_modules/';
// A side's package.json and package-lock.json are the side's: read as plain files, within this size.
export const LOCKFILE_BYTES = 64 * 1024 * 1024;
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
export const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'];

// "body-parser@2.2.0", "@scope/pkg@^1", "router@git+file:///tmp/r#v2" -> { name, spec }.
export function parseOverride(text) {
  const match = /^(@[^@/\s]+\/[^@/\s]+|[^@/\s]+)@(.+)$/.exec(text);
  if (!match) throw errors.badOverride(text);
  return { name: match[1], spec: match[2] };
}

// A relative file: spec is the user's, relative to where they ran compare; the side is elsewhere.
const absoluteSpec = (spec, cwd) => {
  const path = spec.startsWith('file:') ? spec.slice('file:'.length) : null;
  return path !== null && !isAbsolute(path) ? `file:${resolve(cwd, path)}` : spec;
};

/**
 * A side's overrides as npm's `overrides` object: a config's { name: spec } first, then the
 * command line's "name@spec" texts (they win).
 */
export function overridesOf(fromConfig = {}, fromFlags = [], cwd = process.cwd()) {
  const given = { ...fromConfig, ...Object.fromEntries(fromFlags.map(parseOverride).map((o) => [o.name, o.spec])) };
  return Object.fromEntries(Object.entries(given).map(([name, spec]) => [name, absoluteSpec(spec, cwd)]));
}

// The lockfile of `ref` in `repo` (undefined: the working tree's), or null when it has none.
export function lockfileOf(repo, ref) {
  if (ref === undefined) {
    const file = resolve(repo, 'package-lock.json');
    return existsSync(file) ? readInputJson(file, (problem) => errors.badOverrideTree(file, problem)) : null;
  }
  const shown = gitResult(['show', '--end-of-options', `${ref}:package-lock.json`], { cwd: repo });
  if (!shown.ok) return null;
  try {
    return JSON.parse(shown.stdout);
  } catch {
    throw errors.badOverrideTree(`package-lock.json at ${ref}`, 'is not JSON');
  }
}

const nameAt = (key, entry) => entry.name ?? key.slice(key.lastIndexOf(PREFIX) + PREFIX.length);

/** Throws a one-line error for an override of a package that `lock` (what: where it is) does not install anywhere. */
export function checkOverridable(overrides, lock, what) {
  const installed = new Set(
    Object.entries(lock?.packages ?? {})
      .filter(([key]) => key)
      .map(([key, entry]) => nameAt(key, entry)),
  );
  for (const name of Object.keys(overrides))
    if (!installed.has(name)) throw errors.unknownOverride(name, what ?? 'the project (it has no package-lock.json)');
}

// npm keeps a locked copy that an override's version range also allows (a nested copy locked at
// 1.1.0 stays when the override says 1.0.0): every locked copy of an overridden package, and what
// is nested in it, is taken out of the lockfile, so npm resolves those afresh and nothing else.
function unlockOverridden(dir, overrides) {
  const file = resolve(dir, 'package-lock.json');
  const lock = readSideJson(file, overrides, { missing: null });
  if (!lock) return;
  const unlocked = Object.entries(lock.packages ?? {})
    .filter(([key, entry]) => key && overrides[nameAt(key, entry)] !== undefined)
    .map(([key]) => key);
  for (const key of Object.keys(lock.packages ?? {}))
    if (unlocked.some((gone) => key === gone || key.startsWith(`${gone}/`))) delete lock.packages[key];
  delete lock.dependencies; // lockfileVersion 2's copy for npm 6, which would lock them again
  writeFileAtomicSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}

// A side's manifest or lockfile, never through a link (a commit's could name the runner's files);
// written back atomically, so a link there is replaced, not followed.
const readSideJson = (file, overrides, options) =>
  readPlainJson(
    file,
    LOCKFILE_BYTES,
    (problem) => errors.installFailed(`the overrides ${describeOverrides(overrides)}`, `${file} ${problem}`),
    options,
  );

/** A side's lockfile text (the report's changed packages), or null when it has none or it is not a plain file. */
export function readSideLockfile(file) {
  try {
    return readPlainText(file, LOCKFILE_BYTES, () => null, { missing: null });
  } catch {
    return null;
  }
}

// What an override names on this machine (a tarball, a directory, a git repository): the
// maintainer's choice, shown read-only to the sandboxed install, which sees nothing else outside its side.
export function overrideSources(overrides) {
  return Object.values(overrides)
    .map((spec) => /^(?:file:|git\+file:\/\/)(\/[^#]*)/.exec(spec)?.[1])
    .filter((path) => path && existsSync(path));
}

/**
 * Writes `overrides` into the package.json in `dir` and installs the tree with npm: a direct
 * dependency of an overridden package takes the same spec (npm refuses an override that
 * contradicts a direct dependency). A node_modules linked from elsewhere is replaced, never changed.
 * sandboxed: installed in the sandbox (bench/measurement/sandbox/install.js), which sees `visible` too.
 */
export function applyOverrides(dir, overrides, { sandboxed = false, visible = [] } = {}) {
  const file = resolve(dir, 'package.json');
  const manifest = readSideJson(file, overrides);
  for (const field of DEPENDENCY_FIELDS)
    for (const name of Object.keys(manifest[field] ?? {}))
      if (overrides[name] !== undefined) manifest[field][name] = overrides[name];
  manifest.overrides = { ...manifest.overrides, ...overrides };
  writeFileAtomicSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  unlockOverridden(dir, overrides);
  const modules = resolve(dir, 'node_modules');
  if (lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(modules);
  const installed = sandboxed
    ? installSandboxed(['npm', ...NPM_INSTALL], dir, { visible: [...overrideSources(overrides), ...visible] })
    : spawnSync('npm', NPM_INSTALL, { cwd: dir, encoding: 'utf8' });
  if (installed.error || installed.status !== 0)
    throw errors.installFailed(
      `the overrides ${describeOverrides(overrides)}`,
      installed.error?.message ?? installFailure(`${installed.stdout}\n${installed.stderr}`).lines,
    );
}

export const describeOverrides = (overrides) =>
  Object.entries(overrides)
    .map(([name, spec]) => `${name}@${spec}`)
    .join(', ');

// An entry as a report shows it: its version, and where it came from when not the registry.
const shown = (entry) => {
  if (!entry) return 'absent';
  const source = entry.resolved && !/^https?:\/\//.test(entry.resolved) ? ` (${entry.resolved})` : '';
  return `${entry.version ?? '?'}${source}`;
};

/**
 * What differs between two resolved lockfiles: [{ name, from, to, where }], one per place in the
 * tree whose package changed version or source, appeared or went, in the lockfiles' order.
 */
export function lockfileChanges(baseLock, headLock) {
  const base = baseLock?.packages ?? {};
  const head = headLock?.packages ?? {};
  const keys = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((key) => key.includes(PREFIX));
  return keys
    .filter((key) => shown(base[key]) !== shown(head[key]))
    .sort()
    .map((key) => ({
      name: nameAt(key, head[key] ?? base[key]),
      from: shown(base[key]),
      to: shown(head[key]),
      // The lockfile's own path of that copy: exact, and quotable as code in the PR comment.
      where: key,
    }));
}

/**
 * Both sides' resolved lockfiles, when each side has its own (commits, overrides), read before
 * the sides are removed: { base, head } texts and the changes between them; else null.
 */
export function sideLockfiles({ base, head }) {
  if (!base.lockfile || !head.lockfile || base.lockfile === head.lockfile) return null;
  const texts = { base: readSideLockfile(base.lockfile), head: readSideLockfile(head.lockfile) };
  if (texts.base === null || texts.head === null) return null;
  const parsed = (text) => {
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  };
  return { ...texts, changes: lockfileChanges(parsed(texts.base), parsed(texts.head)) };
}
