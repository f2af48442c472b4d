// Load generation with autocannon's programmatic API, bounded by its duration, against
// loopback only. Also makes sure the process may open as many sockets as a tier needs.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { errors } from './errors.js';

// File descriptors the harness needs besides one socket per connection.
const FD_HEADROOM = 256;
// Socket errors that mean "the client ran out of sockets", not "the server failed".
const SOCKET_EXHAUSTION = new Set(['EMFILE', 'ENFILE', 'EADDRNOTAVAIL']);

function openFileLimit() {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((text) => text.startsWith('Max open files'));
  const [soft, hard] = line.split(/\s{2,}/).slice(1, 3).map((value) => (value === 'unlimited' ? Infinity : Number(value)));
  return { soft, hard };
}

// Raises this process's open-file limit for a tier (children inherit it), or throws the
// "not run" reason. Root may raise the hard limit too; others only up to it.
export function ensureFileLimit(connections) {
  const needed = connections + FD_HEADROOM;
  const before = openFileLimit();
  if (before.soft >= needed) return before.soft;
  const target = process.getuid?.() === 0 ? Math.max(needed, before.hard) : before.hard;
  const hard = Math.max(target, before.hard);
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${target}:${hard === Infinity ? 'unlimited' : hard}`], { stdio: 'ignore' });
  } catch {
    // refused: reported below with the limit that holds
  }
  const after = openFileLimit();
  if (after.soft < needed) throw errors.fileLimit(connections, after.soft, needed);
  return after.soft;
}

/**
 * Runs autocannon once. Returns its result, the requests counted in each second, and the
 * codes of the socket errors it met.
 */
export async function runLoad({ port, request, connections, duration, pipelining = 1, timeout, workers = 0 }) {
  const options = {
    url: `http://127.0.0.1:${port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration,
    pipelining,
    timeout,
    ...(workers > 0 ? { workers } : {}),
  };
  const perSecond = [];
  const errorCodes = {};
  const instance = autocannon(options);
  instance.on('tick', ({ counter }) => perSecond.push(counter));
  instance.on('reqError', (error) => {
    const code = error.code ?? (error.message === 'request timed out' ? 'TIMEOUT' : 'OTHER');
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
  });
  const result = await instance;
  const exhausted = Object.keys(errorCodes).filter((code) => SOCKET_EXHAUSTION.has(code));
  const warnings = exhausted.length ? [errors.socketsExhausted(connections, exhausted.join(', ')).message] : [];
  return { result, perSecond, errorCodes, warnings };
}
