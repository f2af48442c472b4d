// Pure: a V8 .cpuprofile (what --cpu-prof and the inspector's Profiler.stop produce) turned
// into self time per function. A sample's duration is the gap to the next sample, as Chrome
// DevTools counts it; the last sample runs to the profile's end.
import { fileURLToPath } from 'node:url';

// Not work of the server: the profiler's own idle and the tree's root.
const NOT_WORK = new Set(['(idle)', '(root)']);

// Where a script lives, relative to the side's checkout, so that the same function has the
// same identity in two worktrees; node's own modules keep their `node:` name.
export function scriptPath(url, root) {
  if (!url) return '';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return root && path.startsWith(root) ? path.slice(root.length).replace(/^\/+/, '') : path;
}

// The npm package a script belongs to (the innermost node_modules folder), or what else it is.
export function packageOf(path) {
  if (!path) return '(native)';
  if (path.startsWith('node:')) return 'node';
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return match ? match[1] : '(app)';
}

// A function's identity across the two sides: its name and file; lines move when code is
// added above it, so they are shown but not part of the key, except for anonymous functions.
function functionKey({ functionName, path, line }) {
  return functionName ? `${functionName}\u0000${path}` : `(anonymous)\u0000${path}:${line}`;
}

/**
 * @param {object} profile  a parsed .cpuprofile
 * @param {{root?: string}} where  the side's checkout, stripped from file paths
 * @returns {Map<string, {functionName: string, path: string, line: number, package: string, selfMicros: number}>}
 */
export function selfTimes(profile, { root } = {}) {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const micros = new Map();
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((nodeId, index) => {
    const duration = (times[index + 1] ?? profile.endTime) - times[index];
    if (duration > 0) micros.set(nodeId, (micros.get(nodeId) ?? 0) + duration);
  });
  const functions = new Map();
  for (const [nodeId, selfMicros] of micros) {
    const frame = frames.get(nodeId);
    if (NOT_WORK.has(frame.functionName)) continue;
    const path = scriptPath(frame.url, root);
    const entry = { functionName: frame.functionName, path, line: frame.lineNumber + 1 };
    const key = functionKey(entry);
    const known = functions.get(key) ?? {
      ...entry,
      functionName: entry.functionName || '(anonymous)',
      package: packageOf(path),
      selfMicros: 0,
    };
    known.selfMicros += selfMicros;
    functions.set(key, known);
  }
  return functions;
}

// Several processes of one side (cluster workers, upstreams) add up.
export function mergeSelfTimes(maps) {
  const merged = new Map();
  for (const map of maps) {
    for (const [key, entry] of map) {
      const known = merged.get(key);
      if (known) known.selfMicros += entry.selfMicros;
      else merged.set(key, { ...entry });
    }
  }
  return merged;
}
