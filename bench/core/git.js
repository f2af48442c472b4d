// git, in one place: `git` for the steps that must succeed (its trimmed output; a failure
// throws with git's message), `gitOutput` for the questions whose answer is optional (which
// commit, which remote): its output, or null where git cannot say (not a checkout, no commit
// yet, no such remote); `gitResult` and `gitAsync` for callers that word git's failure
// themselves (a catalogued error, an exit code that means "no such ref"): the exit code and
// both outputs, synchronously or as a promise that a signal can cut short.
import { execFileSync, spawn, spawnSync } from 'node:child_process';

// Lockfiles and data.js histories pass through git's stdout: far above Node's 1 MiB default.
const MAX_OUTPUT = 256 * 1024 * 1024;

export const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

export function gitOutput(args, cwd) {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

/**
 * @param {string[]} args
 * @param {{cwd?: string, env?: object}} [options] env: added to this process's environment
 * @returns {{ok: boolean, exitCode: number|null, stdout: string, stderr: string}}
 */
export function gitResult(args, { cwd, env } = {}) {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: MAX_OUTPUT,
    env: env ? { ...process.env, ...env } : undefined,
  });
  const stderr = result.error ? result.error.message : result.stderr;
  return { ok: result.status === 0, exitCode: result.status, stdout: result.stdout ?? '', stderr: stderr ?? '' };
}

/**
 * gitResult's answer, without blocking; an aborted `signal` kills git (exitCode null then).
 * @param {string[]} args
 * @param {{cwd?: string, signal?: AbortSignal}} [options]
 * @returns {Promise<{ok: boolean, exitCode: number|null, stdout: string, stderr: string}>}
 */
export function gitAsync(args, { cwd, signal } = {}) {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: [], stderr: [] };
    child.stdout.on('data', (chunk) => out.stdout.push(chunk));
    child.stderr.on('data', (chunk) => out.stderr.push(chunk));
    const text = (chunks) => Buffer.concat(chunks).toString('utf8');
    // No git on PATH, or aborted: the first of the two events settles the promise.
    child.on('error', (error) =>
      resolve({ ok: false, exitCode: null, stdout: text(out.stdout), stderr: error.message }),
    );
    child.on('close', (code) =>
      resolve({ ok: code === 0, exitCode: code, stdout: text(out.stdout), stderr: text(out.stderr) }),
    );
  });
}
