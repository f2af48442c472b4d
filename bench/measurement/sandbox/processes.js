// The processes of a sandbox, found through its namespaces in /proc: a process can leave its
// process group (setsid), never its PID or network namespace. Used to sample a sandboxed
// server's CPU (bench/measurement/sampling/), to see what it left behind when it is stopped, and to check,
// before results are written, that nothing of a measurement is still running.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// "pid:[4026532178]" -> "4026532178", or null when the process is gone.
export function namespaceOf(pid, kind) {
  try {
    return /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/${kind}`))[1];
  } catch {
    return null;
  }
}

const pids = () => readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 200);
  } catch {
    return '';
  }
}

// State and process group from /proc/<pid>/stat (fields counted after the command's last ')').
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, pgrp: Number(pgrp) };
  } catch {
    return { state: 'X', pgrp: null };
  }
}
export const processGroup = (pid) => stat(pid).pgrp;
// A zombie has ended; only its exit status waits to be collected.
const alive = (pid) => !['Z', 'X'].includes(stat(pid).state);

/** Every live process in namespace `inode` of `kind` (pid, net): [{pid, pgrp, command}]. */
export function processesIn(kind, inode) {
  return pids()
    .filter((pid) => namespaceOf(pid, kind) === inode && alive(pid))
    .map((pid) => ({ pid: Number(pid), pgrp: processGroup(pid), command: commandLine(pid) }));
}

/** The PID namespace of the sandbox whose outermost process leads group `groupId`, or null. */
export function sandboxPidNamespace(groupId) {
  const own = namespaceOf(process.pid, 'pid');
  for (const pid of pids()) {
    if (processGroup(pid) !== groupId) continue;
    const namespace = namespaceOf(pid, 'pid');
    if (namespace && namespace !== own) return namespace;
  }
  return null;
}

/** SIGKILLs every process in namespace `inode` of `kind`; returns those it found. */
export function killAllIn(kind, inode) {
  const found = processesIn(kind, inode);
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return found;
}

/** The pid, as this process sees it, of process `innerPid` of PID namespace `inode`, or null. */
export function outerPid(inode, innerPid) {
  for (const { pid } of processesIn('pid', inode)) {
    try {
      const nsPids = /^NSpid:\s+(.+)$/m
        .exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]
        .trim()
        .split(/\s+/);
      if (Number(nsPids.at(-1)) === innerPid) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
