// Samples, while a load runs, what the result records besides the load generator's own
// numbers: the busy and steal % of every core, the CPU model the machine reports (a hosted
// runner's virtual machine can land on another host from one job to the next), the server
// group's CPU time (children included) and peak resident memory. The load generator's CPU comes
// from its own processes (bench/measurement/engines/).
import { cpus } from 'node:os';
import { coreUsage, CLOCK_TICKS, readCoreTicks, readGroups, round1 } from './proc.js';

const INTERVAL_MS = 250;

export function startSampler(serverGroups, pidNamespaces = []) {
  const startedAt = process.hrtime.bigint();
  const coresBefore = readCoreTicks();
  const first = readGroups(serverGroups, pidNamespaces);
  let peakRssBytes = first.rssBytes;
  let peakProcesses = first.processes;
  const timer = setInterval(() => {
    const now = readGroups(serverGroups, pidNamespaces);
    peakRssBytes = Math.max(peakRssBytes, now.rssBytes);
    peakProcesses = Math.max(peakProcesses, now.processes);
  }, INTERVAL_MS);

  return function stop() {
    clearInterval(timer);
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const last = readGroups(serverGroups, pidNamespaces);
    return {
      seconds,
      cores: coreUsage(coresBefore, readCoreTicks()),
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      server: {
        // % of one core, as top shows it: 200 means two cores fully busy.
        cpuPct: round1((100 * (last.cpuTicks - first.cpuTicks)) / CLOCK_TICKS / seconds),
        cpuSeconds: (last.cpuTicks - first.cpuTicks) / CLOCK_TICKS,
        peakRssBytes: Math.max(peakRssBytes, last.rssBytes),
        processes: Math.max(peakProcesses, last.processes),
      },
    };
  };
}
