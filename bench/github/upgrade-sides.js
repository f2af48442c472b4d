// The two sides of the upgrade gate as the pull request and its base lock them: each commit's
// package-lock.json (what is installed) and package.json (its overrides shape how), read with
// git show (or from the working tree), and written to a directory of their own for
// `compare --dep-lock/--vs-lock`, which installs from them exactly (bench/comparison/lockfile.js).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors, githubErrors } from '../core/errors.js';
import { gitResult } from '../core/git.js';
import { isWorkflow, RUNTIME_FILES, WORKFLOWS_DIR } from './runtime-upgrade.js';

// `--end-of-options`: a ref starting with a dash is never an option of git.
function fileAt(ref, file) {
  if (ref === undefined) return readFileSync(file, 'utf8');
  const shown = gitResult(['show', '--end-of-options', `${ref}:${file}`]);
  if (!shown.ok) throw new Error(shown.stderr || `git show exited with ${shown.exitCode}`);
  return shown.stdout;
}

/** The side of `ref` (undefined: the working tree): { lock, manifest }; a clear error without a lockfile. */
export function sideAt(ref) {
  const what = ref === undefined ? 'package-lock.json of the working tree' : `package-lock.json at ${ref}`;
  let text;
  try {
    text = fileAt(ref, 'package-lock.json');
  } catch (error) {
    const said = String(error.stderr || error.message)
      .trim()
      .split('\n')[0];
    throw githubErrors.badLockfile(what, `cannot be read (${said})`);
  }
  let lock;
  try {
    lock = JSON.parse(text);
  } catch {
    throw githubErrors.badLockfile(what, 'is not JSON');
  }
  let manifest = {};
  try {
    manifest = JSON.parse(fileAt(ref, 'package.json'));
  } catch {
    // No package.json (or not JSON): a lockfile alone, with no overrides.
  }
  return { lock, manifest };
}

// The side's package-lock.json and package.json in `dir`, for compare --dep-lock/--vs-lock DIR.
export function writeSide(dir, side) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(side.lock));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(side.manifest));
  return dir;
}

/** The merge base of two commits (where a pull request's head branched off --base). */
export function mergeBaseOf(base, head) {
  const found = gitResult(['merge-base', '--end-of-options', base, head]);
  if (!found.ok) throw errors.unknownRef(head, `the history of ${base} (no merge base)`);
  return found.stdout.trim();
}

/**
 * The files of `ref` (undefined: the working tree) where a Node.js version is declared
 * (bench/github/runtime-upgrade.js): path -> text, workflows included; absent files left out.
 */
export function runtimeFilesAt(ref) {
  const workflows =
    ref === undefined
      ? existsSync(WORKFLOWS_DIR)
        ? readdirSync(WORKFLOWS_DIR).map((name) => `${WORKFLOWS_DIR}/${name}`)
        : []
      : (gitResult(['ls-tree', '--name-only', '--end-of-options', ref, `${WORKFLOWS_DIR}/`]).stdout ?? '').split('\n');
  const files = {};
  for (const path of [...RUNTIME_FILES, ...workflows.filter(isWorkflow)]) {
    try {
      files[path] = fileAt(ref, path);
    } catch {
      // Not there at that commit: nothing declared in it.
    }
  }
  return files;
}
