// Starts one server variant as a pinned child process, waits until it is ready (or fails
// with the reason), and stops it. Its stdout and stderr go to a log file per run.
// sideCommand is the one place a side's process's argv and environment are composed.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../core/errors.js';
import { pinnedCommand } from '../pinning.js';
import { onRuntime } from '../runtime/resolve.js';
import { runtimeAgentLaunch } from '../runtime-agent/window.js';
import { recordMisbehaviour } from '../sandbox/conduct.js';
import { sandboxEnv, sandboxView, wrap } from '../sandbox/bubblewrap.js';
import { closeView } from '../sandbox/view.js';
import { limitServer } from '../sandbox/server-limits.js';
import { killAllIn, processesIn, sandboxPidNamespace } from '../sandbox/processes.js';
import { spawnGroup, stopGroup } from './children.js';
import { logExcerpt } from './log-excerpt.js';
import { freePort, LOOPBACK, portIsFree } from './ports.js';

const POLL_MS = 25;

const logOf = (logFile) => logExcerpt(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

// A command is not run through a shell, so `$PORT` and `$HOST` (or `${PORT}`, `${HOST}`) in its
// arguments are replaced here, as a shell would have (a server that takes only --port).
const LISTEN_VARIABLES = /\$(?:\{(PORT|HOST)\}|(PORT|HOST)\b)/g;
export const withListenAddress = (command, address) =>
  command.map((arg) => arg.replace(LISTEN_VARIABLES, (_, braced, bare) => address[braced ?? bare]));

// Other `$NAME`s in a command's arguments reach the server as they are, unless a shell runs it.
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);
export const unexpandedVariables = (command) =>
  SHELLS.has(basename(command[0]))
    ? []
    : command.flatMap((arg) => arg.replace(LISTEN_VARIABLES, '').match(/\$\{?[A-Za-z_]\w*\}?/g) ?? []);

// The address a variant's servers listen on: its side's in a comparison (bench/measurement/sandbox/side-networks.js),
// else loopback's. The mock backend and the database of a benchmark listen on its server's.
export const listenHost = (variant) => variant.launch.sandbox?.address ?? LOOPBACK;

async function answersHttp(host, port, path) {
  try {
    await fetch(`http://${host}:${port}${path}`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

// The port a server wrote in its ready file (a side's code: anything else is not ready yet).
function readyFilePort(readyFile) {
  try {
    const { port } = JSON.parse(readFileSync(readyFile, 'utf8'));
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  } catch {
    return undefined;
  }
}

// The processes of a sandbox that left the server's process group (setsid: a daemon).
const leftOutsideGroup = (pidNamespace, groupId) =>
  processesIn('pid', pidNamespace).filter((each) => each.pgrp !== groupId);

// A stopped sandbox's namespace empties as the kernel ends it; whatever is still there after a
// moment is killed and returned.
async function emptyNamespace(pidNamespace) {
  for (let waited = 0; waited < 1000 && processesIn('pid', pidNamespace).length; waited += POLL_MS)
    await sleep(POLL_MS);
  return killAllIn('pid', pidNamespace);
}

// NODE_OPTIONS of every layer (the harness's, the variant's, the server settings'), in that
// order, so a setting adds to the user's options instead of dropping them.
const nodeOptions = (...layers) =>
  layers
    .map((layer) => layer?.NODE_OPTIONS)
    .filter(Boolean)
    .join(' ');

/**
 * The argv and environment of a process of a side (a server, or the describe step), composed
 * in this order, each step owned by one module:
 *   1. `command`, the variant's launch command (its Node binary is process.execPath);
 *   2. runtime (bench/measurement/runtime/ onRuntime): that binary replaced by the side's runtime (launch.runtime),
 *      whose bin/ leads PATH;
 *   3. sandbox (bench/measurement/sandbox/): wrapped in bubblewrap when the side is untrusted
 *      (launch.sandbox: what it may read, its network), with the harness's environment left out;
 *   4. pinning (bench/measurement/pinning.js): taskset, when a plan is given;
 *   5. limits (bench/measurement/sandbox/server-limits.js): a sandboxed server joins its cgroup
 *      first of all, before anything of the side runs.
 * @param {string[]} command
 * @param {{runtime?: object, sandbox?: object, env?: object, cwd?: string}} launch
 * @param {{env?: object, plan?: object, cpus?: number[], view?: object, detached?: boolean, agent?: object,
 *   limits?: object}} how
 *   env: what the harness sets for this process; view: a sandboxed process's file system
 *   (bench/measurement/sandbox/view.js: a copy of its tree to write in, and its scratch directory);
 *   detached: started in a session of its own (./children.js spawnGroup); agent: a module preloaded
 *   into its Node processes ({env: its NODE_OPTIONS and variables, readOnly: the folders a sandbox
 *   must let it read}: bench/measurement/runtime-agent/window.js); limits: a sandboxed server's
 *   (bench/measurement/sandbox/server-limits.js limitServer)
 */
export function sideCommand(command, launch = {}, { env = {}, plan, cpus, view, detached, agent, limits } = {}) {
  const sandbox =
    agent && launch.sandbox
      ? { ...launch.sandbox, readOnly: [...launch.sandbox.readOnly, ...agent.readOnly] }
      : launch.sandbox;
  const inherited = sandbox ? sandboxEnv(process.env) : process.env;
  const onIt = onRuntime(
    command,
    {
      ...inherited,
      ...launch.env,
      ...env,
      ...agent?.env,
      NODE_OPTIONS: nodeOptions(inherited, launch.env, env, agent?.env),
      ...(sandbox && view ? { HOME: view.scratch, TMPDIR: view.scratch } : {}),
    },
    launch.runtime,
  );
  const argv = sandbox ? wrap(onIt.command, sandbox, { view, cwd: launch.cwd, detached }) : onIt.command;
  const pinned = plan ? pinnedCommand(plan, argv, cpus) : argv;
  return { argv: limits ? limits.argv(pinned) : pinned, env: onIt.env };
}

/**
 * @param {object} variant  from bench/measurement/variants.js
 * @param {{env?: object, plan: object, cpus?: number[], logFile: string, readyTimeout: number, host?: string, port?: number,
 *   runtimeAgent?: false|{heapEveryMs?: number}}} how  runtimeAgent: preload the runtime agent into its Node
 *   processes (heapEveryMs: a soak's, bench/measurement/runtime-agent/window.js); a variant whose launch has
 *   runtimeAgent gets it whatever this says (one side's only: bench/comparison/side-overhead.js)
 * @returns {Promise<{host: string, port: number, pid: number, pidNamespace?: string, logFile: string, exited: Promise, stop: () => Promise,
 *   agent?: {dir: string, absent?: string}}>}
 *   pid: the leader of the server's process group; pidNamespace: a sandboxed server's (bench/measurement/sandbox/processes.js);
 *   agent: where the runtime agent writes, or why it cannot run (bench/measurement/runtime-agent/window.js)
 */
export async function startServer(
  variant,
  {
    env = {},
    plan,
    cpus,
    logFile,
    readyTimeout,
    host = listenHost(variant),
    port = variant.launch.port,
    runtimeAgent = false,
  },
) {
  if (port && !(await portIsFree(port, host))) throw errors.portInUse(port);
  const { launch } = variant;
  // A sandboxed server writes into a file system of its own (its tree's copy, its scratch).
  const view = launch.sandbox ? sandboxView(launch.sandbox) : null;
  // And under its side's limits (cgroup, the view's size), watched from its start.
  const limits = launch.sandbox ? limitServer(launch.sandbox, view, cpus ?? plan.server) : null;
  const workDir = view ? view.scratch : mkdtempSync(join(tmpdir(), 'perfgate-server-'));
  const readyFile = join(workDir, 'ready.json');
  const listenPort = port ?? (launch.readiness === 'http' ? await freePort(host) : 0);
  const log = openSync(logFile, 'a');
  const command = withListenAddress(launch.command, { PORT: String(listenPort), HOST: host });
  const wantsAgent = runtimeAgent || launch.runtimeAgent;
  const agentLaunch = wantsAgent ? runtimeAgentLaunch(workDir, launch.runtime, wantsAgent) : undefined;
  const composed = sideCommand(command, launch, {
    plan,
    cpus,
    view,
    agent: agentLaunch?.preload,
    detached: true,
    limits,
    env: {
      ...env,
      PORT: String(listenPort),
      HOST: host,
      PERFGATE_READY_FILE: readyFile,
      // For variants that pin processes of their own (nginx and its upstreams).
      PERFGATE_SERVER_CPUS: (cpus ?? plan.server ?? []).join(','),
    },
  });
  const group = spawnGroup(composed.argv, { cwd: launch.cwd, env: composed.env, stdio: ['ignore', log, log] });
  closeSync(log);
  limits?.watch(() => group.child.kill('SIGKILL'));
  // How it ended, with the limit it reached (a process killed by the kernel at its memory limit
  // may end it before the watch sees the limit).
  const exited = group.exited.then((result) => {
    const limit = limits?.reached();
    return limit ? { ...result, limit } : result;
  });
  let exit;
  exited.then((result) => {
    exit = result;
  });
  let pidNamespace;
  const stop = async () => {
    if (launch.sandbox) pidNamespace ??= sandboxPidNamespace(group.child.pid);
    const strays = pidNamespace ? leftOutsideGroup(pidNamespace, group.child.pid) : [];
    await stopGroup(group);
    const survivors = pidNamespace ? await emptyNamespace(pidNamespace) : [];
    const wrote = view ? closeView(view) : null;
    if (!view) rmSync(workDir, { recursive: true, force: true });
    for (const [what, found] of [
      ["left processes outside its server's process group", strays],
      ['had processes still running after its server stopped (killed)', survivors],
    ]) {
      if (found.length)
        recordMisbehaviour(launch.sandbox.side, `${what}: ${found.map((each) => each.command).join('; ')}`);
    }
    if (wrote) recordMisbehaviour(launch.sandbox.side, wrote);
    limits?.close();
  };

  const deadline = Date.now() + readyTimeout * 1000;
  while (Date.now() < deadline) {
    if (exit) {
      await stop();
      throw errors.serverExited(
        variant.name,
        exit.code,
        exit.signal,
        logFile,
        exit.limit ?? exit.error?.message ?? logOf(logFile),
        'while starting',
      );
    }
    const readyPort =
      launch.readiness === 'http'
        ? (await answersHttp(host, listenPort, launch.readyPath))
          ? listenPort
          : undefined
        : readyFilePort(readyFile);
    if (readyPort) {
      if (launch.sandbox) pidNamespace = sandboxPidNamespace(group.child.pid);
      const agent = agentLaunch ? { dir: workDir, absent: agentLaunch.absent } : undefined;
      return { host, port: readyPort, pid: group.child.pid, pidNamespace, logFile, exited, stop, agent };
    }
    await sleep(POLL_MS);
  }
  await stop();
  throw errors.serverNotReady(variant.name, readyTimeout, logFile, logOf(logFile));
}
