// One load against loopback, through an engine of the seam (bench/measurement/engines/): split over as
// many load-generator processes as the tier and the open-file limit need, launched first
// and started together, then merged into perfgate's load sample. Every load is bounded by
// its duration (and each engine's own time limit).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { engineFor } from './engines/seam.js';
import { closedLoad, engineLoads, MODELS, openLoad } from '../../site/shared/load-point.js';
import { LOOPBACK } from './process/ports.js';
import { errors } from '../core/errors.js';
import { encodeHistogram, mergeHistograms } from './latency-histogram.js';
import { mergeSchedules } from './engines/open-schedule.js';

// File descriptors a load-generator process needs besides one socket per connection.
const FD_HEADROOM = 256;
// Socket errors that mean "the client ran out of sockets", not "the server failed".
const SOCKET_EXHAUSTION = new Set(['EMFILE', 'ENFILE', 'EADDRNOTAVAIL']);

function openFileLimit() {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((text) => text.startsWith('Max open files'));
  const [soft, hard] = line
    .split(/\s{2,}/)
    .slice(1, 3)
    .map((value) => (value === 'unlimited' ? Infinity : Number(value)));
  return { soft, hard };
}

// Raises this process's open-file limit towards a tier's need (children inherit it): root
// may raise the hard limit too, others only up to it. Returns the soft limit that holds.
function raiseFileLimit(connections) {
  const needed = connections + FD_HEADROOM;
  const before = openFileLimit();
  if (before.soft >= needed) return before.soft;
  const target = process.getuid?.() === 0 ? Math.max(needed, before.hard) : before.hard;
  const hard = Math.max(target, before.hard);
  try {
    execFileSync(
      'prlimit',
      ['--pid', String(process.pid), `--nofile=${target}:${hard === Infinity ? 'unlimited' : hard}`],
      { stdio: 'ignore' },
    );
  } catch {
    // refused: the limit that holds decides how many processes the tier needs
  }
  return openFileLimit().soft;
}

// Pure: how many load-generator processes a tier needs: at least `workers`, and enough
// that none holds more sockets than its open-file limit allows. Throws the "not run" reason
// when even one connection per process would not fit.
export function processesFor(connections, { fileLimit, workers = 0 }) {
  const perProcess = fileLimit - FD_HEADROOM;
  if (perProcess < 1) throw errors.fileLimit(connections, fileLimit, connections + FD_HEADROOM);
  return Math.min(connections, Math.max(1, workers, Math.ceil(connections / perProcess)));
}

const sumBy = (parts, pick) => parts.reduce((sum, part) => sum + pick(part), 0);

// Pure: the part samples of one load's processes -> perfgate's load sample.
function mergeParts(parts, { engine, connections }) {
  const errorCodes = {};
  for (const part of parts) {
    for (const [code, count] of Object.entries(part.errorCodes)) errorCodes[code] = (errorCodes[code] ?? 0) + count;
  }
  const seconds = Math.max(0, ...parts.map((part) => part.requests.perSecond.length));
  const perSecond = Array.from({ length: seconds }, (_, index) =>
    sumBy(parts, (part) => part.requests.perSecond[index] ?? 0),
  );
  const exhausted = Object.keys(errorCodes).filter((code) => SOCKET_EXHAUSTION.has(code));
  return {
    engine,
    processes: parts.length,
    connections,
    durationSeconds: Math.max(...parts.map((part) => part.durationSeconds)),
    requests: { total: sumBy(parts, (part) => part.requests.total), perSecond },
    responses: {
      '2xx': sumBy(parts, (part) => part.responses['2xx']),
      non2xx: sumBy(parts, (part) => part.responses.non2xx),
    },
    bytes: sumBy(parts, (part) => part.bytes),
    errors: sumBy(parts, (part) => part.errors),
    timeouts: sumBy(parts, (part) => part.timeouts),
    errorCodes,
    latencyHistogram: encodeHistogram(mergeHistograms(parts.map((part) => part.latencyHistogram))),
    client: { cpuSeconds: sumBy(parts, (part) => part.client.cpuSeconds) },
    // An open-model engine's: how well the client kept the schedule.
    ...(parts[0].schedule ? { schedule: mergeSchedules(parts.map((part) => part.schedule)) } : {}),
    warnings: exhausted.length ? [errors.socketsExhausted(connections, exhausted.join(', ')).message] : [],
  };
}

/**
 * Launches one load (its processes ready, nothing sent yet); each `go(duration?, requests?)` runs
 * it (until the duration, or a request count when given, whichever comes first) and resolves to
 * the load sample; `stop()` ends its processes. Two prepared loads started
 * together are a duet's two sides. The port may be a promise: the processes start while the
 * server does, and aim at it once it is known.
 * @param {{engine?: string|object, host?: string, port: number|Promise<number>, request: object, connections: number, duration: number,
 *   pipelining?: number, rate?: number, timeout: number, workers?: number}} options
 */
export async function prepareLoad({ engine: chosen, workers = 0, host = LOOPBACK, ...options }) {
  const engine = engineFor(chosen, options.rate);
  // An open-model engine reads `rate` as its schedule, a closed-loop one as a cap (site/shared/load-point.js).
  const point =
    engine.model === MODELS.open ? openLoad(options.rate, options.connections) : closedLoad(options.connections);
  // An open point without connections leaves its sockets to the engine, in one process.
  const sockets = point.connections ?? 1;
  const fileLimit = raiseFileLimit(Math.ceil(sockets / Math.max(1, workers)));
  const count = processesFor(sockets, { fileLimit, workers });
  // The processes start at once (and, when the port is a promise, while the server starts).
  const settled = await Promise.allSettled(
    engineLoads(point, count, options.rate).map(({ model, ...share }) => engine.launch({ ...options, host, ...share })),
  );
  const launched = settled.filter((each) => each.status === 'fulfilled').map((each) => each.value);
  const failed = settled.find((each) => each.status === 'rejected');
  if (failed) {
    await Promise.all(launched.map((each) => each.stop()));
    throw errors.loadFailed(engine.name, failed.reason.message);
  }
  const stop = () => Promise.all(launched.map((each) => each.stop()));
  return {
    engine: engine.name,
    async go(duration, requests = 0) {
      // A count is shared among the load's processes, as its connections are.
      const share = requests > 0 ? Math.ceil(requests / launched.length) : 0;
      try {
        const parts = await Promise.all(launched.map((each) => each.go(duration, share)));
        return mergeParts(parts, { engine: engine.name, connections: options.connections });
      } catch (error) {
        await stop();
        throw errors.loadFailed(engine.name, error.message);
      }
    },
    stop,
  };
}

export async function runLoad(options) {
  const load = await prepareLoad(options);
  try {
    return await load.go();
  } finally {
    await load.stop();
  }
}
