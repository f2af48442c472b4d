// wrk (Debian package) as a second load generator, only to cross-check autocannon:
// a C client tells how far autocannon's own cost lowers the numbers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pinnedCommand } from './pinning.js';

const run = promisify(execFile);

// Pure: wrk's report -> requests per second.
export function parseWrkRequestsPerSecond(report) {
  const match = /Requests\/sec:\s+([\d.]+)/.exec(report);
  if (!match) throw new Error(`wrk printed no Requests/sec line:\n${report}`);
  return Number(match[1]);
}

export async function runWrk({ plan, port, path, connections, duration, threads = 1 }) {
  const command = pinnedCommand(plan, ['wrk', `-t${threads}`, `-c${connections}`, `-d${duration}s`, `http://127.0.0.1:${port}${path}`], plan.load);
  const { stdout } = await run(command[0], command.slice(1), { timeout: (duration + 30) * 1000 });
  return parseWrkRequestsPerSecond(stdout);
}
