// The harness's side of the runtime agent (./agent.mjs): what a server's process needs to load it
// (sideCommand adds it, bench/measurement/process/server.js), and the measured window it reads
// over, opened after the warm-up and closed after the load, whose readings become the run
// record's `server.runtime` (./readings.js). Where the agent cannot run, the figures are absent
// with the reason, never zero.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { readPlainJson } from '../../core/read-file.js';
import { filesAppear, pidsWith, signalAgents } from '../process/agent-files.js';
import { readingProblem, runtimeFigures } from './readings.js';

const AGENT = new URL('./agent.mjs', import.meta.url);
// Node's --import and v8.GCProfiler: the agent's two needs.
const NODE_RANGE = '>=20.6.0 || ^18.19.0';
// For the window to open (a signal's answer), and for the readings (a full GC of a large heap).
const START_MS = 5000;
const READ_MS = 15_000;
// A reading is a few hundred bytes, and a soak's adds about 20 a heap sample (an hour at one a
// second: 72 KB); a side's process may have written anything.
const MAX_READING_BYTES = 8 * 1024 ** 2;

/**
 * How a process of a side loads the agent, writing into dir: { preload } for sideCommand (the
 * environment, and the folder a sandbox must let it read), or { absent } with the reason.
 * @param {string} dir  a directory the server may write (its scratch directory in a sandbox)
 * @param {{name: string, version: string}} [runtime]  the side's (absent: the harness's Node)
 * @param {{heapEveryMs?: number}} [how]  heapEveryMs: a soak's interval between heap readings
 */
export function runtimeAgentLaunch(
  dir,
  runtime = { name: 'node', version: process.versions.node },
  { heapEveryMs } = {},
) {
  if (runtime.name !== 'node') return { absent: `the server runs on ${runtime.name}, not Node.js` };
  if (!semver.satisfies(runtime.version, NODE_RANGE))
    return { absent: `Node.js ${runtime.version} cannot preload the agent (it needs ${NODE_RANGE})` };
  return {
    preload: {
      env: {
        NODE_OPTIONS: `--import="${AGENT.href}"`,
        PERFGATE_AGENT_DIR: dir,
        ...(heapEveryMs > 0 ? { PERFGATE_AGENT_HEAP_EVERY_MS: String(heapEveryMs) } : {}),
      },
      readOnly: [fileURLToPath(new URL('.', AGENT))],
    },
  };
}

/**
 * Starts the window in every process of the server that loaded the agent.
 * @param {{agent?: {dir: string, absent?: string}, pidNamespace?: string}} server  from startServer
 * @returns {Promise<{pids: number[]} | {absent: string} | null>} null: no agent was asked for
 */
export async function openWindow(server) {
  const { agent } = server;
  if (!agent) return null;
  if (agent.absent) return { absent: agent.absent };
  const pids = pidsWith(agent.dir, '.runtime-agent');
  if (!pids.length)
    return { absent: 'no Node.js process of the server loaded the runtime agent (a Go, Java or nginx server)' };
  const stray = signalAgents(pids, server);
  if (stray) return { absent: `the runtime agent named process ${stray}, which is not the server's` };
  if (!(await filesAppear(agent.dir, pids, '.runtime-started', START_MS)))
    return { absent: `the runtime agent did not open its window within ${START_MS / 1000} s` };
  return { pids };
}

// A reading, or why it is none: a side's process wrote it, so it is read as a plain file within a size.
function readReading(file) {
  try {
    return { reading: readPlainJson(file, MAX_READING_BYTES, (problem) => new Error(problem)) };
  } catch (error) {
    return { problem: `a reading that ${error.message}` };
  }
}

/**
 * Ends the window and returns the run record's `server.runtime`: the figures, { absent }, or
 * undefined when no agent was asked for.
 */
export async function closeWindow(server, opened) {
  if (!opened) return undefined;
  if (opened.absent) return { absent: opened.absent };
  const { dir } = server.agent;
  const stray = signalAgents(opened.pids, server);
  if (stray) return { absent: `process ${stray} of the server ended before its window did` };
  if (!(await filesAppear(dir, opened.pids, '.runtime.json', READ_MS)))
    return { absent: `the runtime agent did not write its reading within ${READ_MS / 1000} s` };
  const read = opened.pids.map((pid) => readReading(join(dir, `${pid}.runtime.json`)));
  const problem = read.map((each) => each.problem ?? readingProblem(each.reading)).find(Boolean);
  if (problem) return { absent: `the runtime agent wrote ${problem}` };
  return runtimeFigures(read.map((each) => each.reading));
}
