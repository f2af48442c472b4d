// The per-user cache of installed runtimes, shared by runs: $PERFGATE_RUNTIME_CACHE, else
// $XDG_CACHE_HOME/perfgate/runtimes, else ~/.cache/perfgate/runtimes. One directory per package
// and exact version. An install is made in a temporary directory inside the cache and renamed
// into place only once its binary answered `--version`, so a half-downloaded or broken runtime
// is never found there; a failed or interrupted install leaves nothing behind.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { errors } from '../../core/errors.js';
import { registerCleanup } from '../process/children.js';
import { downloadTarball } from './registry.js';

const run = promisify(execFile);
const MARKER = 'perfgate-runtime.json';
const TEMPORARY = /^\.tmp-(\d+)-/;

export function runtimeCacheDir(env = process.env) {
  if (env.PERFGATE_RUNTIME_CACHE) return env.PERFGATE_RUNTIME_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'perfgate', 'runtimes');
}

const entryName = (pkg, version) => `${pkg.replace('/', '+')}@${version}`;

/** The versions of `pkg` installed in the cache (complete entries only). */
export function cachedVersions(cacheDir, pkg) {
  const prefix = `${pkg.replace('/', '+')}@`;
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir)
    .filter((entry) => entry.startsWith(prefix) && existsSync(join(cacheDir, entry, MARKER)))
    .map((entry) => entry.slice(prefix.length));
}

export const cachedEntry = (cacheDir, pkg, version) => join(cacheDir, entryName(pkg, version));

// Runs `<binary> --version` and says what went wrong, or null when it printed `version`.
export async function versionProblem(binary, expected, versionOf) {
  try {
    const { stdout } = await run(binary, ['--version'], { timeout: 20000 });
    const found = versionOf(stdout);
    return found === expected ? null : `\`${binary} --version\` printed "${found}", not ${expected}`;
  } catch (error) {
    const detail = `${error.stderr ?? ''}`.trim().split('\n')[0] || error.message;
    return `\`${binary} --version\` failed: ${detail}`;
  }
}

// What an earlier run left when it was killed before it could clean up: its pid is gone.
function removeAbandoned(cacheDir) {
  for (const entry of readdirSync(cacheDir)) {
    const pid = Number(TEMPORARY.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (error.code === 'ESRCH') rmSync(join(cacheDir, entry), { recursive: true, force: true });
    }
  }
}

function makeTemporary(cacheDir) {
  try {
    mkdirSync(cacheDir, { recursive: true });
    return mkdtempSync(join(cacheDir, `.tmp-${process.pid}-`));
  } catch (error) {
    throw errors.runtimeCacheUnwritable(cacheDir, error.code ?? error.message);
  }
}

/**
 * Installs pkg@version into the cache unless it is there; returns the entry's directory.
 * @param {{cacheDir: string, pkg: string, version: string, kind: object, label: string}} what
 */
export async function installRuntime({ cacheDir, pkg, version, kind, label }) {
  const entry = cachedEntry(cacheDir, pkg, version);
  if (existsSync(join(entry, MARKER))) return entry;
  const temporary = makeTemporary(cacheDir);
  const unregister = registerCleanup(() => rmSync(temporary, { recursive: true, force: true }));
  try {
    removeAbandoned(cacheDir);
    const downloaded = await downloadTarball(pkg, version, temporary);
    if (!downloaded.ok) throw errors.runtimeInstallFailed(label, `${pkg}@${version}`, downloaded.detail);
    const tree = join(temporary, 'tree');
    mkdirSync(tree);
    try {
      // Only what runs: Node's headers and docs are 60 MB of no use to a server.
      await run('tar', ['-xzf', downloaded.file, '-C', tree, '--strip-components=1', 'package/bin']);
    } catch (error) {
      const said = `${error.stderr ?? ''}`.trim().split('\n')[0] || error.message;
      throw errors.runtimeInstallFailed(label, `${pkg}@${version}`, said);
    }
    const problem = await versionProblem(join(tree, kind.executable), version, kind.versionOf);
    if (problem) throw errors.runtimeBroken(label, problem);
    // A runtime that runs Node.js programs under the name `node` (Bun does, as `bun --bun` sets
    // it up): a user's `node server.js` or `npm start` then runs on it too.
    if (kind.nodeAlias) symlinkSync(kind.executable.split('/').at(-1), join(tree, 'bin', 'node'));
    writeFileAtomicSync(
      join(tree, MARKER),
      `${JSON.stringify({ package: pkg, version, installedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    try {
      renameSync(tree, entry);
    } catch (error) {
      // Another run installed the same version meanwhile: theirs is as good as ours.
      if (!existsSync(join(entry, MARKER))) throw errors.runtimeCacheUnwritable(cacheDir, error.code ?? error.message);
    }
    return entry;
  } finally {
    rmSync(temporary, { recursive: true, force: true });
    unregister();
  }
}

/**
 * A runtime's bin/ linked into `dir` (hard links: no copy on one file system), for a sandbox whose
 * unprivileged uid cannot pass through the cache's home (run as root, ~ is /root, closed to it).
 * Removed with `dir`. Returns the runtime as found there.
 */
export function stageRuntime(runtime, dir) {
  const from = dirname(runtime.binary);
  const to = join(dir, `runtime-${runtime.name}-${runtime.version}`, 'bin');
  mkdirSync(to, { recursive: true, mode: 0o755 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(join(from, entry.name)), join(to, entry.name));
    else linkOrCopy(join(from, entry.name), join(to, entry.name));
  }
  for (let at = to; at !== dir; at = dirname(at)) chmodSync(at, 0o755);
  return { ...runtime, binary: join(to, basename(runtime.binary)) };
}

function linkOrCopy(from, to) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to); // another file system
  }
}
