// Readers of Linux /proc: per-core CPU time (as mpstat computes it) and the CPU time and
// resident memory of a whole process group (a server with its workers and children).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { namespaceOf } from '../sandbox/processes.js';

const getconf = (name, fallback) => {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim());
  } catch {
    return fallback;
  }
};
export const CLOCK_TICKS = getconf('CLK_TCK', 100);
const PAGE_SIZE = getconf('PAGESIZE', 4096);

// Pure: /proc/stat text -> per-core { core, busy, total, steal } in ticks. Steal (time the
// hypervisor gave another guest while this one wanted the core) counts as busy, and is kept apart too.
export function parseProcStat(text) {
  return text
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const [name, ...fields] = line.trim().split(/\s+/);
      const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields.map(Number);
      const busy = user + nice + system + irq + softirq + steal;
      return { core: Number(name.slice(3)), busy, total: busy + idle + iowait, steal };
    });
}

export const readCoreTicks = () => parseProcStat(readFileSync('/proc/stat', 'utf8'));

// Pure: busy % and steal % of each core between two readings.
export function coreUsage(before, after) {
  return after.map(({ core, busy, total, steal = 0 }) => {
    const start = before.find((reading) => reading.core === core) ?? { busy: 0, total: 0, steal: 0 };
    const elapsed = total - start.total;
    const share = (ticks) => (elapsed > 0 ? round1((100 * ticks) / elapsed) : 0);
    return { core, busyPct: share(busy - start.busy), stealPct: share(steal - (start.steal ?? 0)) };
  });
}

export const round1 = (value) => Math.round(value * 10) / 10;

// Pure: one /proc/<pid>/stat line -> the fields we use. The command name may hold spaces
// and parentheses, so fields are counted from the last ')'.
export function parsePidStat(text) {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pgrp: Number(fields[2]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    // cutime + cstime: the CPU time of children this process has waited for.
    childTicks: Number(fields[13]) + Number(fields[14]),
    rssPages: Number(fields[21]),
  };
}

// CPU ticks and resident bytes summed over every process in the given groups, and in the given
// PID namespaces (a sandboxed server's: a process can leave its group, not its namespace).
export function readGroups(groupIds, pidNamespaces = []) {
  const wanted = new Set(groupIds);
  const namespaces = new Set(pidNamespaces);
  let cpuTicks = 0;
  let rssBytes = 0;
  let processes = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = parsePidStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
    } catch {
      continue; // exited while we looked
    }
    if (!wanted.has(stat.pgrp) && !(namespaces.size && namespaces.has(namespaceOf(entry, 'pid')))) continue;
    cpuTicks += stat.cpuTicks + stat.childTicks; // children included, once reaped
    rssBytes += stat.rssPages * PAGE_SIZE;
    processes++;
  }
  return { cpuTicks, rssBytes, processes };
}
