// Whether a runtime or native addon a variant needs can run on this machine: runs a short
// command in a child process (never loading anything into the harness) and turns a failure
// into the one-line reason a skipped benchmark shows.
import { spawnSync } from 'node:child_process';

export function commandProblem(argv, what) {
  const probe = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout: 10000 });
  if (probe.status === 0) return null;
  const lines = (probe.stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // Node prints the stack after the message; a native addon's last "Error:" line names the cause.
  const cause =
    probe.error?.message ??
    lines.filter((line) => line.startsWith('Error:')).at(-1) ??
    lines[0] ??
    `exit code ${probe.status}`;
  return `${what} cannot run here: ${cause}`;
}
