// The two sides of a comparison, each a directory with its own servers/ and node_modules:
//   - two git commits, each checked out in its own worktree with its own dependencies;
//   - two versions of one npm package, each installed in isolation beside links to the
//     rest of this project's packages.
// The harness and the load generator always come from the current checkout, so both sides
// are measured by the same tool. Everything made here is removed on exit, error or signal.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errors } from '../errors.js';
import { registerCleanup } from '../process/children.js';

const run = (command, args, cwd) => spawnSync(command, args, { cwd, encoding: 'utf8' });
const lastLines = (text, count = 3) => text.trim().split('\n').slice(-count).join(' / ');

// A scratch directory for the sides, removed however the process ends.
export function createWorkRoot() {
  const root = mkdtempSync(join(tmpdir(), 'perfgate-compare-'));
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

function sideOf(label, root, description) {
  return { label, root, description, serversDir: pathToFileURL(join(root, 'servers/')) };
}

// "express@4.21.2" -> { name: 'express', version: '4.21.2' }; "@scope/pkg@1" works too.
export function parsePackageSpec(spec) {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { name: spec, version: undefined };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

export function resolveCommit(repo, ref) {
  const found = run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repo);
  if (found.status !== 0) throw errors.unknownRef(ref, repo);
  return found.stdout.trim();
}

export function checkGitSides(repo, base, head) {
  const shas = { base: resolveCommit(repo, base), head: resolveCommit(repo, head) };
  if (shas.base === shas.head) throw errors.sameSides(base, head, shas.base);
  if (run('git', ['status', '--porcelain', '--untracked-files=no'], repo).stdout.trim()) throw errors.dirtyWorktree(repo);
  return shas;
}

// Same lockfile, same packages: link this checkout's node_modules instead of installing again.
function installDependencies(sideRoot, projectRoot) {
  const lock = (dir) => (existsSync(join(dir, 'package-lock.json')) ? readFileSync(join(dir, 'package-lock.json'), 'utf8') : null);
  if (lock(sideRoot) !== null && lock(sideRoot) === lock(projectRoot)) {
    symlinkSync(join(projectRoot, 'node_modules'), join(sideRoot, 'node_modules'));
    return;
  }
  const install = run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], sideRoot);
  if (install.status !== 0) throw errors.installFailed(`the dependencies of ${sideRoot}`, lastLines(install.stderr));
}

export function prepareGitSide({ repo, sha, ref, label, work, projectRoot }) {
  const dir = join(work.root, label);
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, sha], { cwd: repo, stdio: 'ignore' });
  work.onRemove(() => {
    run('git', ['worktree', 'remove', '--force', dir], repo);
    run('git', ['worktree', 'prune'], repo);
  });
  installDependencies(dir, projectRoot);
  return { ...sideOf(label, dir, `${ref} (${sha.slice(0, 12)})`), ref, sha };
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

export function prepareDependencySide({ spec, label, work, projectRoot }) {
  const { name } = parsePackageSpec(spec);
  const dir = join(work.root, label);
  const isolated = join(dir, 'isolated');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  mkdirSync(isolated);
  const install = run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', isolated, spec], dir);
  if (install.status !== 0) throw errors.installFailed(spec, lastLines(install.stderr));
  linkProjectPackages(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), name);
  symlinkSync(join(isolated, 'node_modules', name), join(dir, 'node_modules', name));
  // A copy, not a link: Node resolves a module's imports from its real path.
  cpSync(join(projectRoot, 'servers'), join(dir, 'servers'), { recursive: true });
  const version = JSON.parse(readFileSync(join(isolated, 'node_modules', name, 'package.json'), 'utf8')).version;
  return { ...sideOf(label, dir, `${name}@${version}`), spec, version };
}
