// Plans which cores the load generator and the server get, and applies it with taskset.
// On a shared machine, a server and its load generator fighting for one core measure the
// scheduler, not the server: keep them apart when there are >= 2 cores, and say so in the result.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// "0-2,4" -> [0, 1, 2, 4]
export function parseCpuList(list) {
  return list
    .trim()
    .split(',')
    .flatMap((part) => {
      const [from, to = from] = part.split('-').map(Number);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    });
}

export function allowedCpus() {
  const status = readFileSync('/proc/self/status', 'utf8');
  return parseCpuList(/Cpus_allowed_list:\s*(.+)/.exec(status)[1]);
}

const hasTaskset = () => spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

// Pure: the plan for a set of cores. The load generator takes the first cores (one per
// autocannon worker, at most half), the server the rest.
export function planPinning(cpus, { loadWorkers = 0, tasksetAvailable = true } = {}) {
  if (!tasksetAvailable) return { method: 'none', reason: 'taskset not found (Debian package util-linux)', cpus };
  if (cpus.length < 2)
    return { method: 'none', reason: `only ${cpus.length} core available: server and load generator share it`, cpus };
  const loadCount = Math.max(1, Math.min(loadWorkers, Math.floor(cpus.length / 2)));
  return { method: 'taskset', load: cpus.slice(0, loadCount), server: cpus.slice(loadCount), cpus };
}

// The cores this process could use before pinSelf narrowed it to the load generator's: a
// process that runs several suites or comparisons (npm run calibrate) plans each one over
// all of them, not over the load core the previous one left it on.
let startingCpus;

export function currentPinning(options) {
  startingCpus ??= allowedCpus();
  return planPinning(startingCpus, { ...options, tasksetAvailable: hasTaskset() });
}

// Pins this process (all its threads, so autocannon workers too) to the load generator's cores.
export function pinSelf(plan) {
  if (plan.method !== 'taskset') return;
  execFileSync('taskset', ['-a', '-p', '-c', plan.load.join(','), String(process.pid)], { stdio: 'ignore' });
}

// The command line that starts a server on the server's cores.
export function pinnedCommand(plan, command, cpus = plan.server) {
  return plan.method === 'taskset' ? ['taskset', '-c', cpus.join(','), ...command] : command;
}

export function describePinning(plan) {
  return plan.method === 'taskset'
    ? `server ${plan.server.join(',')}, load ${plan.load.join(',')}`
    : `none (${plan.reason})`;
}
