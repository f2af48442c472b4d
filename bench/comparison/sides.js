// The two sides of a comparison, each a directory with its own code and node_modules:
//   - two git commits, each checked out in its own worktree with its own dependencies;
//   - two versions of one npm package, each installed in isolation beside links to the
//     rest of the project's packages, next to a copy of the project's files; with a side's
//     lockfile (the upgrade gate), exactly as that lockfile locks it (bench/comparison/lockfile.js).
// The project is perfgate's own checkout (its servers/ are what is compared) or a user's
// repository with a perfgate.config (its servers are). The harness and the load generator
// always come from the perfgate that runs, never from a side, so both sides are measured by
// the same tool. Everything made here is removed on exit, error or signal.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errors } from '../core/errors.js';
import { git, gitResult } from '../core/git.js';
import { installedDifferences, lockedSide } from './lockfile.js';
import { asRoot, checkPassable } from '../measurement/sandbox/bubblewrap.js';
import { installSandboxed } from '../measurement/sandbox/install.js';
import { registerCleanup } from '../measurement/process/children.js';
import { readPlainJson } from '../core/read-file.js';
import { SYSTEM_RUNTIME } from '../measurement/runtime/resolve.js';
import { placeOnRuntime } from '../measurement/runtime/variant.js';
import { commandVariant, loadBuiltInVariants } from '../measurement/variants.js';
import { installFailure } from './install-output.js';
import {
  applyOverrides,
  DEPENDENCY_FIELDS,
  describeOverrides,
  LOCKFILE_BYTES,
  overrideSources,
  readSideLockfile,
} from './overrides.js';

// How perfgate's own sides install: the same lockfile, no install scripts (none is needed).
const OWN_INSTALL = ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];

const run = (command, args, cwd) => spawnSync(command, args, { cwd, encoding: 'utf8' });
const lastLines = (text, count = 3) => text.trim().split('\n').slice(-count).join(' / ');

// A scratch directory for the sides, removed however the process ends.
export function createWorkRoot() {
  const root = mkdtempSync(join(tmpdir(), 'perfgate-compare-'));
  // Passable (not readable) by a sandbox's unprivileged uid, so that its sides can be bound.
  chmodSync(root, 0o711);
  const jobs = [];
  const removeAll = () => {
    for (const job of jobs.splice(0).reverse()) job();
    rmSync(root, { recursive: true, force: true });
  };
  const unregister = registerCleanup(removeAll);
  return {
    root,
    onRemove: (job) => jobs.push(job),
    remove() {
      unregister();
      removeAll();
    },
  };
}

// projectRoot: the checkout the side was made from; its servers' directories map into the side.
export function sideOf(label, root, description, projectRoot) {
  return { label, root, description, projectRoot, serversDir: pathToFileURL(join(root, 'servers/')) };
}

// A project's server runs in the side's copy of the directory it runs in.
function rerooted(declaration, side) {
  const inside = side.projectRoot && declaration.cwd && !relative(side.projectRoot, declaration.cwd).startsWith('..');
  return inside ? { ...declaration, cwd: join(side.root, relative(side.projectRoot, declaration.cwd)) } : declaration;
}

// What a side's sandbox may read of the harness: its servers/ (a project's servers run under
// servers/handler.js), and the packages those import (forward.js: undici), where they are installed.
const HARNESS_SERVERS = fileURLToPath(new URL('../../servers/', import.meta.url));
const HARNESS_SERVER_PACKAGES = ['undici'];
const harnessReadable = () => {
  const require = createRequire(join(HARNESS_SERVERS, 'contract/forward.js'));
  return [HARNESS_SERVERS, ...HARNESS_SERVER_PACKAGES.map((name) => dirname(require.resolve(`${name}/package.json`)))];
};

/**
 * Run as root, what the sides' sandboxes will bind of this machine, checked before any side is
 * made or installed (bench/measurement/sandbox/bubblewrap.js checkPassable): the temporary
 * directory (the sides, their installs and views), perfgate's servers and the packages they
 * import, the project's node_modules (which a side with the same lockfile reuses), and what the
 * sides' overrides name on this machine (shown to their installs).
 */
export function checkSandboxReach(projectRoot, overrides = {}) {
  if (!asRoot()) return;
  const modules = join(projectRoot, 'node_modules');
  // A path inside the temporary directory, so that the directory itself is checked too.
  const inTemp = join(tmpdir(), 'perfgate-sides');
  const named = Object.values(overrides).flatMap(overrideSources);
  for (const dir of [inTemp, ...harnessReadable(), ...(existsSync(modules) ? [modules] : []), ...named])
    checkPassable(dir);
}

// How a side's own code runs: in its sandbox when it has one (side.sandbox: the directories it
// may read besides the system's), with the environment the side carries (calibration injects a
// slowdown this way).
const sideLaunch = (side) => ({
  ...(side.runtime ? { runtime: side.runtime } : {}),
  ...(side.sandbox ? { sandbox: { ...side.sandbox, readOnly: [...side.sandbox.readOnly, ...harnessReadable()] } } : {}),
  ...(side.env ? { env: side.env } : {}),
  // The runtime agent in this side's Node.js processes whatever the config says (agent-overhead).
  ...(side.runtimeAgent ? { runtimeAgent: side.runtimeAgent } : {}),
});

function withSideLaunch(variant, side) {
  const launch = sideLaunch(side);
  return { ...variant, launch: { ...variant.launch, ...launch, env: { ...variant.launch.env, ...launch.env } } };
}

/**
 * The variants `names` as `side` runs them: a project's server (`commands`) in the side's tree;
 * a built-in variant from the side's own servers/ when the side is a perfgate checkout (that code
 * is what is compared), described and run in the side's sandbox; else from the perfgate that
 * runs (a reference: the same trusted code on both sides).
 * @returns {Promise<object>} the variants by name
 */
export async function loadSideVariants(side, names, commands = {}) {
  const runtime = side.runtime ?? SYSTEM_RUNTIME;
  const describeOn = (some, on) => describeSideVariants({ ...side, runtime: on }, some, commands);
  const placed = await placeOnRuntime(await describeOn(names, runtime), runtime, describeOn);
  return Object.fromEntries(placed.map((variant) => [variant.name, variant]));
}

// The variants `names` as `side` describes them on its runtime, in that order.
async function describeSideVariants(side, names, commands) {
  const ownBuiltIn = (name) => side.serversDir && existsSync(new URL(`variants/${name}.js`, side.serversDir));
  const builtIns = names.filter((name) => !commands[name]);
  const own = await loadBuiltInVariants(builtIns.filter(ownBuiltIn), {
    serversDir: side.serversDir,
    launch: sideLaunch(side),
  });
  // The harness's own code on the side's runtime: trusted, so never sandboxed.
  const trusted = { runtime: side.runtime, env: side.env };
  const harness = await loadBuiltInVariants(
    builtIns.filter((name) => !ownBuiltIn(name)),
    { launch: sideLaunch({ runtime: side.runtime }) },
  );
  const found = [...own, ...harness.map((variant) => (side.env ? withSideLaunch(variant, trusted) : variant))];
  return names.map((name) =>
    commands[name]
      ? withSideLaunch(commandVariant(name, rerooted(commands[name], side)), side)
      : found.find((variant) => variant.name === name),
  );
}

// "express@4.21.2" -> { name: 'express', version: '4.21.2' }; "@scope/pkg@1" works too.
export function parsePackageSpec(spec) {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { name: spec, version: undefined };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

export function resolveCommit(repo, ref) {
  const found = gitResult(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo });
  if (!found.ok) throw errors.unknownRef(ref, repo);
  return found.stdout.trim();
}

export function checkGitSides(repo, base, head) {
  const shas = { base: resolveCommit(repo, base), head: resolveCommit(repo, head) };
  if (shas.base === shas.head) throw errors.sameSides(base, head, shas.base);
  if (gitResult(['status', '--porcelain', '--untracked-files=no'], { cwd: repo }).stdout.trim())
    throw errors.dirtyWorktree(repo);
  return shas;
}

// npm's own install (`npm ci`, `npm install`, with any flags) makes nothing but node_modules; any
// other command (`sh -c "npm ci && npm run build"`) may make the side's code too.
const installsOnly = (install) => install[0] === 'npm' && ['ci', 'install', 'i'].includes(install[1]);

// Same lockfile, same packages: link the project's node_modules instead of installing again,
// unless the install also builds, which every side must then do for its own commit.
// Otherwise a sandboxed side installs in its sandbox: its install scripts are code under test.
// say: what the side does, while an install may take minutes.
function installDependencies(sideRoot, projectRoot, install, sandboxed, visible, say) {
  const lock = (dir) => readSideLockfile(join(dir, 'package-lock.json'));
  if (
    installsOnly(install) &&
    lock(sideRoot) !== null &&
    lock(sideRoot) === lock(projectRoot) &&
    existsSync(join(projectRoot, 'node_modules'))
  ) {
    symlinkSync(join(projectRoot, 'node_modules'), join(sideRoot, 'node_modules'));
    say("reuses your node_modules (its package-lock.json is your working tree's)");
    return;
  }
  say(`installs with \`${install.join(' ')}\`${sandboxed ? ' in the sandbox' : ''}`);
  const installed = sandboxed
    ? installSandboxed(install, sideRoot, { visible })
    : run(install[0], install.slice(1), sideRoot);
  if (installed.error || installed.status !== 0) {
    const failure = installFailure(`${installed.stdout}\n${installed.stderr}`);
    throw errors.installFailed(
      `the dependencies of ${sideRoot} with \`${install.join(' ')}\``,
      installed.error?.message ??
        [
          failure.lines,
          failure.log && `npm's log: ${failure.log}`,
          failure.scriptFailed &&
            `an install script of the project (prepare, postinstall, ...) failed: if the servers do not need it, set perfgate.config's "install" to ["npm", "ci", "--ignore-scripts"]`,
        ]
          .filter(Boolean)
          .join('; '),
    );
  }
}

// Files the servers need that git does not hold (a data file, a .env, a build), copied from the
// project's working tree into a side: perfgate.config's "copy".
function copyNamedFiles(projectRoot, dir, copy) {
  for (const path of copy) cpSync(join(projectRoot, path), join(dir, path), { recursive: true });
}

// A `file:` tarball of the project outside its tree (`npm install ../perfgate-0.1.0.tgz` saves
// file:../perfgate-0.1.0.tgz in package.json and the lockfile): a side, checked out in the work
// root, looks for it relative to itself, so the user's file is copied to where the side looks
// (read-only to its sandboxed install). Only what the working tree names: the user's choice, not a
// commit's. A directory is left to npm, which links it (refused after a sandboxed install, with the fix).
// @returns the paths the side's install reads outside its directory
function placeOutsideTarballs(projectRoot, dir, work) {
  // Unreadable or not JSON: npm says so when it installs.
  const read = (file) => {
    try {
      return readPlainJson(join(projectRoot, file), LOCKFILE_BYTES, (problem) => new Error(problem), { missing: {} });
    } catch {
      return {};
    }
  };
  const [manifest, lock] = [read('package.json'), read('package-lock.json')];
  const specs = [
    ...DEPENDENCY_FIELDS.flatMap((field) => Object.values(manifest[field] ?? {})),
    ...Object.values(lock.packages ?? {}).map((entry) => entry?.resolved),
  ].filter((spec) => typeof spec === 'string' && spec.startsWith('file:'));
  const placed = new Set();
  for (const spec of new Set(specs)) {
    const path = spec.slice('file:'.length);
    const source = resolve(projectRoot, path);
    if (isInside(source, projectRoot) || !statSync(source, { throwIfNoEntry: false })?.isFile()) continue;
    const seenAt = isAbsolute(path) ? source : resolve(dir, path);
    if (seenAt !== source && !isInside(seenAt, work.root))
      throw errors.installFailed(
        `the dependencies of ${dir}`,
        `${spec} names ${source}, outside the repository, which a side checked out in ${dir} looks for at ${seenAt}: keep the tarball in the repository or in the directory just above it`,
      );
    if (!existsSync(seenAt)) {
      mkdirSync(dirname(seenAt), { recursive: true });
      copyFileSync(source, seenAt);
      chmodSync(seenAt, 0o644); // the sandbox's uid reads it
    }
    placed.add(seenAt);
  }
  return [...placed];
}

const isInside = (path, dir) => !relative(dir, path).startsWith('..') && !isAbsolute(relative(dir, path));

// Failures a file missing from a side can cause: a server that does not start, or answers wrongly
// (a server that creates a missing data file afresh serves other data).
const FILE_SENSITIVE = new Set(['PG_SERVER_EXITED', 'PG_SERVER_NOT_READY', 'PG_WRONG_ANSWER']);
const SHOWN_IGNORED = 5;

// What the project's working tree has that git ignores and a side lacks (not npm's or perfgate's).
function ignoredFilesMissing(side) {
  const listed = gitResult(['ls-files', '--others', '--ignored', '--exclude-standard', '--directory'], {
    cwd: side.projectRoot,
  });
  if (!listed.ok) return [];
  return listed.stdout
    .split('\n')
    .filter((path) => path && !/^(?:node_modules|results|\.perfgate)\/$/.test(path))
    .filter((path) => !existsSync(join(side.root, path)));
}

/**
 * Why a server of a side may have failed when files git does not hold are the cause: the file its
 * error names, when the project's working tree has it and the side lacks it; else, for a failure
 * at start or a wrong answer, the files git ignores that the sides lack.
 * @param {{message: string, code?: string}} error
 * @returns {string|undefined} the sentence to add to the error
 */
export function missingFileHint({ message, code }, sides) {
  const copies = sides.filter((side) => side.projectRoot && side.root !== side.projectRoot);
  const quoted = [...message.matchAll(/'([^'\s]+)'|"([^"\s]+)"/g)].map((match) => match[1] ?? match[2]);
  for (const side of copies) {
    for (const path of quoted) {
      const inSide = isAbsolute(path) ? relative(side.root, path) : path;
      if (!inSide || inSide.startsWith('..') || isAbsolute(inSide)) continue;
      const file = inSide.replace(/^\.\//, '');
      if (existsSync(join(side.projectRoot, file)) && !existsSync(join(side.root, file)))
        return `${file} is in your working tree but git does not hold it, so a side's copy lacks it: list it in perfgate.config's "copy"`;
    }
  }
  if (!FILE_SENSITIVE.has(code) || !copies.length) return undefined;
  const missing = [...new Set(copies.flatMap(ignoredFilesMissing))];
  if (!missing.length) return undefined;
  const more = missing.length > SHOWN_IGNORED ? `, and ${missing.length - SHOWN_IGNORED} more` : '';
  return `a side holds only what git holds at its commit; your working tree has files git ignores that the sides lack (${missing.slice(0, SHOWN_IGNORED).join(', ')}${more}): if a server needs one, list it in perfgate.config's "copy"`;
}

/**
 * @param {{repo: string, sha: string, ref: string, label: string, work: object, projectRoot: string, install?: string[],
 *   copy?: string[]}} side
 *   projectRoot: the checkout whose node_modules a side with the same lockfile reuses;
 *   install: the command that installs a side's dependencies otherwise (a project's "install");
 *   copy: files of projectRoot's working tree put into the side first (a project's "copy");
 *   sandboxed: the side is code under test, installed in the sandbox (bench/measurement/sandbox/install.js);
 *   onProgress: told each line of what the side does ("base: installs with ...")
 */
export function prepareGitSide({
  repo,
  sha,
  ref,
  label,
  work,
  projectRoot,
  install = OWN_INSTALL,
  copy = [],
  overrides = {},
  sandboxed = false,
  onProgress = () => {},
}) {
  const dir = join(work.root, label);
  git(repo, 'worktree', 'add', '--detach', '--quiet', dir, sha);
  work.onRemove(() => {
    gitResult(['worktree', 'remove', '--force', dir], { cwd: repo });
    gitResult(['worktree', 'prune'], { cwd: repo });
  });
  copyNamedFiles(projectRoot, dir, copy);
  const outside = placeOutsideTarballs(projectRoot, dir, work);
  installDependencies(dir, projectRoot, install, sandboxed, outside, (text) => onProgress(`${label}: ${text}`));
  const overridden = Object.keys(overrides).length;
  if (overridden) applyOverrides(dir, overrides, { sandboxed, visible: outside });
  const description = `${ref} (${sha.slice(0, 12)})${overridden ? ` with ${describeOverrides(overrides)}` : ''}`;
  return { ...sideOf(label, dir, description, repo), ref, sha, lockfile: join(dir, 'package-lock.json') };
}

/**
 * The project's working tree (its tracked files, and "copy"), in a directory of its own, installed
 * with npm `overrides` (bench/comparison/overrides.js): a dependency changed anywhere in the tree.
 */
export function prepareOverrideSide({ label, work, projectRoot, copy = [], overrides, sandboxed = false }) {
  const dir = join(work.root, label);
  mkdirSync(dir);
  copyTrackedFiles(projectRoot, dir);
  copyNamedFiles(projectRoot, dir, copy);
  applyOverrides(dir, overrides, { sandboxed, visible: placeOutsideTarballs(projectRoot, dir, work) });
  const description = Object.keys(overrides).length
    ? `the working tree with ${describeOverrides(overrides)}`
    : 'the working tree (installed apart)';
  return { ...sideOf(label, dir, description, projectRoot), overrides, lockfile: join(dir, 'package-lock.json') };
}

// Links every package of this project into `modulesDir`, except `skip`.
function linkProjectPackages(projectModules, modulesDir, skip) {
  const [scope, bare] = skip.startsWith('@') ? skip.split('/') : [null, skip];
  for (const entry of readdirSync(projectModules)) {
    if (entry === (scope ?? bare)) {
      if (!scope) continue;
      mkdirSync(join(modulesDir, scope));
      for (const member of readdirSync(join(projectModules, scope)).filter((name) => name !== bare)) {
        symlinkSync(join(projectModules, scope, member), join(modulesDir, scope, member));
      }
      continue;
    }
    symlinkSync(join(projectModules, entry), join(modulesDir, entry));
  }
}

// The project's tracked files as they are in its working tree, so that its code resolves the
// side's packages (Node resolves a module's imports from its real path: a copy, not a link).
function copyTrackedFiles(projectRoot, dir) {
  const listed = gitResult(['ls-files', '-z', '--cached'], { cwd: projectRoot });
  if (!listed.ok) throw errors.installFailed(`a copy of ${projectRoot}`, `git ls-files: ${lastLines(listed.stderr)}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(projectRoot, file)) || file.startsWith('node_modules/')) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(projectRoot, file), join(dir, file));
  }
}

const NPM_QUIET = ['--no-audit', '--no-fund', '--ignore-scripts'];

// The side's lockfile and manifest, and what its install wrote: plain files within a size, never through a link.
const readJson = (file, what) =>
  readPlainJson(file, LOCKFILE_BYTES, (problem) => errors.installFailed(what, `${file} ${problem}`));

// `spec` and everything it needs, installed exactly as the package-lock.json (and package.json
// overrides) in `lockedFrom` lock them: their closure, by npm ci (in the sandbox when
// `sandboxed`: the pull request's packages), checked against it afterwards.
function installLocked(isolated, spec, lockedFrom, sandboxed) {
  const { name, version } = parsePackageSpec(spec);
  const lockFile = join(lockedFrom, 'package-lock.json');
  const side = lockedSide({
    lock: readJson(lockFile, spec),
    manifest: existsSync(join(lockedFrom, 'package.json')) ? readJson(join(lockedFrom, 'package.json'), spec) : {},
    name,
    what: lockFile,
  });
  if (side.version !== version) throw errors.lockedVersionMismatch(spec, lockFile, side.version);
  writeFileSync(join(isolated, 'package.json'), JSON.stringify(side.manifest, null, 2));
  writeFileSync(join(isolated, 'package-lock.json'), JSON.stringify(side.lockfile, null, 2));
  const argv = ['npm', 'ci', '--prefer-offline', ...NPM_QUIET];
  const install = sandboxed ? installSandboxed(argv, isolated) : run(argv[0], argv.slice(1), isolated);
  if (install.status !== 0) throw errors.installFailed(spec, installFailure(install.stderr).lines);
  const installed = join(isolated, 'node_modules', '.package-lock.json');
  const problems = installedDifferences(existsSync(installed) ? readJson(installed, spec) : {}, side.lockfile);
  if (problems.length) throw errors.installFailed(spec, `npm did not install it as locked: ${problems.join('; ')}`);
}

/**
 * One version of a package beside the project's other packages. lockedFrom: a directory with the
 * side's package-lock.json (and package.json), from which it is installed exactly as locked
 * (sandboxed: in the sandbox); without it, npm resolves `spec` now (a comparison asked for by
 * hand: a version, or a path the sandbox would not see).
 */
export function prepareDependencySide({ spec, label, work, projectRoot, lockedFrom, copy = [], sandboxed = false }) {
  const { name } = parsePackageSpec(spec);
  const dir = join(work.root, label);
  const isolated = join(dir, '.perfgate-isolated');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  mkdirSync(isolated);
  if (lockedFrom) installLocked(isolated, spec, lockedFrom, sandboxed);
  else {
    // A version asked for by hand (or a tarball, a git URL) resolved now, in the sandbox when
    // `sandboxed`: a git URL's repository is someone else's code, and so is its .npmrc.
    const argv = ['npm', 'install', '--no-save', '--no-package-lock', ...NPM_QUIET, '--prefix', isolated, spec];
    const visible = overrideSources({ [name]: parsePackageSpec(spec).version ?? '' });
    const install = sandboxed ? installSandboxed(argv, isolated, { visible }) : run(argv[0], argv.slice(1), dir);
    if (install.status !== 0) throw errors.installFailed(spec, installFailure(install.stderr).lines);
  }
  linkProjectPackages(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), name);
  symlinkSync(join(isolated, 'node_modules', name), join(dir, 'node_modules', name));
  copyTrackedFiles(projectRoot, dir);
  copyNamedFiles(projectRoot, dir, copy);
  const installedManifest = join(isolated, 'node_modules', name, 'package.json');
  const { version } = readPlainJson(installedManifest, LOCKFILE_BYTES, (problem) =>
    errors.installFailed(spec, `${installedManifest} ${problem}`),
  );
  return { ...sideOf(label, dir, `${name}@${version}`, projectRoot), spec, version };
}
