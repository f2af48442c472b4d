// The CPU time of an engine that runs as one short-lived program (wrk, vegeta): it has exited
// before anyone could read its /proc entry, so a shell runs it and then prints its own /proc
// line, whose children fields now hold the program's CPU time (the shell reaped it).
import { spawnGroup, stopGroup } from '../process/children.js';
import { CLOCK_TICKS, parsePidStat } from '../sampling/proc.js';
import { boundedWait } from './bounded.js';

const MARK = 'PERFGATE_STAT ';

// argv for spawnGroup: `program args…` run by a shell that reports its reaped CPU and keeps its exit code.
export const withReapedCpu = (program, args) => [
  'sh',
  '-c',
  `"$0" "$@"; code=$?; echo "${MARK}$(cat /proc/$$/stat)"; exit $code`,
  program,
  ...args,
];

// The shell's output -> the program's CPU seconds, or null when the shell printed no line.
export function reapedCpuSeconds(stdout) {
  const line = stdout.split('\n').find((each) => each.startsWith(MARK));
  return line ? parsePidStat(line.slice(MARK.length)).childTicks / CLOCK_TICKS : null;
}

// A stream's whole text, once it has closed.
const textOf = (stream) =>
  new Promise((resolve) => {
    let text = '';
    stream.on('data', (chunk) => {
      text += chunk;
    });
    stream.on('close', () => resolve(text));
  });

/**
 * Runs `program args…` to its end within `seconds` and returns its exit, its output and its CPU
 * seconds. Its output is read to the end of both streams: a process's exit may be seen before
 * the last of what it wrote, which holds the CPU line.
 * @param {{name: string, program: string, args: string[], env?: object, seconds: number, onSpawn?: Function}} run
 *   onSpawn: given the process group, so that the engine's stop can end a load still running
 */
export async function runReaped({ name, program, args, env, seconds, onSpawn = () => {} }) {
  const group = spawnGroup(withReapedCpu(program, args), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  onSpawn(group);
  try {
    const [exit, stdout, stderr] = await boundedWait(
      Promise.all([group.exited, textOf(group.child.stdout), textOf(group.child.stderr)]),
      seconds,
      `${name} did not finish`,
    );
    const cpuSeconds = reapedCpuSeconds(stdout);
    if (exit.code !== 0 || cpuSeconds === null)
      throw new Error(
        `${name} failed (${exit.signal ?? `code ${exit.code}`}): ${(stderr || stdout).trim().split('\n').slice(-3).join(' / ')}`,
      );
    return { stdout, cpuSeconds };
  } finally {
    await stopGroup(group);
  }
}
