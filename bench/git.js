// git, in one place: `git` for the steps that must succeed (its trimmed output; a failure
// throws with git's message), `gitOutput` for the questions whose answer is optional (which
// commit, which remote): its output, or null where git cannot say (not a checkout, no commit
// yet, no such remote).
import { execFileSync } from 'node:child_process';

export const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

export function gitOutput(args, cwd) {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}
