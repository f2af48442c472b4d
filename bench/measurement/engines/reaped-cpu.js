// The CPU time of an engine that runs as one short-lived program (wrk, vegeta): it has exited
// before anyone could read its /proc entry, so a shell runs it and then prints its own /proc
// line, whose children fields now hold the program's CPU time (the shell reaped it).
import { CLOCK_TICKS, parsePidStat } from '../sampling/proc.js';

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
