// Starts one server variant as a pinned child process, waits until it is ready (or fails
// with the reason), and stops it. Its stdout and stderr go to a log file per run.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../errors.js';
import { pinnedCommand } from '../pinning.js';
import { spawnGroup, stopGroup } from './children.js';
import { freePort, LOOPBACK, portIsFree } from './ports.js';

const POLL_MS = 25;

function lastLogLine(logFile) {
  const lines = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : [];
  return lines.at(-1) ?? '';
}

async function answersHttp(port, path) {
  try {
    await fetch(`http://${LOOPBACK}:${port}${path}`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

function readyFilePort(readyFile) {
  return existsSync(readyFile) ? JSON.parse(readFileSync(readyFile, 'utf8')).port : undefined;
}

// NODE_OPTIONS of every layer (the harness's, the variant's, the server settings'), in that
// order, so a setting adds to the user's options instead of dropping them.
const nodeOptions = (...layers) =>
  layers
    .map((layer) => layer?.NODE_OPTIONS)
    .filter(Boolean)
    .join(' ');

/**
 * @param {object} variant  from bench/variants.js
 * @param {{env?: object, plan: object, cpus?: number[], logFile: string, readyTimeout: number, port?: number}} how
 * @returns {Promise<{port: number, pid: number, logFile: string, exited: Promise, stop: () => Promise}>}
 */
export async function startServer(
  variant,
  { env = {}, plan, cpus, logFile, readyTimeout, port = variant.launch.port },
) {
  if (port && !(await portIsFree(port))) throw errors.portInUse(port);
  const { launch } = variant;
  const workDir = mkdtempSync(join(tmpdir(), 'perfgate-server-'));
  const readyFile = join(workDir, 'ready.json');
  const listenPort = port ?? (launch.readiness === 'http' ? await freePort() : 0);
  const log = openSync(logFile, 'a');
  const group = spawnGroup(pinnedCommand(plan, launch.command, cpus), {
    cwd: launch.cwd,
    env: {
      ...process.env,
      ...launch.env,
      ...env,
      NODE_OPTIONS: nodeOptions(process.env, launch.env, env),
      PORT: String(listenPort),
      HOST: LOOPBACK,
      PERFGATE_READY_FILE: readyFile,
      // For variants that pin processes of their own (nginx and its upstreams).
      PERFGATE_SERVER_CPUS: (cpus ?? plan.server ?? []).join(','),
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exit;
  group.exited.then((result) => {
    exit = result;
  });
  const stop = async () => {
    await stopGroup(group);
    rmSync(workDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + readyTimeout * 1000;
  while (Date.now() < deadline) {
    if (exit) {
      await stop();
      const detail = exit.error ? exit.error.message : lastLogLine(logFile);
      throw errors.serverExited(variant.name, exit.code, exit.signal, `${logFile}${detail ? ` (${detail})` : ''}`);
    }
    const readyPort =
      launch.readiness === 'http'
        ? (await answersHttp(listenPort, launch.readyPath))
          ? listenPort
          : undefined
        : readyFilePort(readyFile);
    if (readyPort) return { port: readyPort, pid: group.child.pid, logFile, exited: group.exited, stop };
    await sleep(POLL_MS);
  }
  await stop();
  throw errors.serverNotReady(variant.name, readyTimeout, logFile);
}
