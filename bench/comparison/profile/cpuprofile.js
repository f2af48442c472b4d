// Pure: a V8 .cpuprofile (what --cpu-prof and the inspector's Profiler.stop produce) turned
// into self time per function. A sample's duration is the gap to the next sample, as Chrome
// DevTools counts it; the last sample runs to the profile's end.
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not work of the server: the profiler's own idle and the tree's root.
const NOT_WORK = new Set(['(idle)', '(root)']);

// A script's file path: what V8 reports, a file:// URL or a name such as node:http.
const filePath = (url) => (url.startsWith('file://') ? fileURLToPath(url) : url);

// The npm package a script belongs to (the innermost node_modules folder), or what else it is.
export function packageOf(path) {
  if (!path) return '(native)';
  if (path.startsWith('node:')) return 'node';
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return match ? match[1] : '(app)';
}

// Where a script lives, the same for the same file on both sides whatever each side's root:
// inside a package, the path within that package (one side may reuse the project's
// node_modules by absolute path while the other installed its own, or an isolated version);
// else relative to the side's checkout. node's own modules keep their `node:` name.
export function scriptPath(url, root) {
  if (!url) return '';
  const path = filePath(url);
  const inPackage = /.*node_modules\/(?:@[^/]+\/)?[^/]+\/(.*)$/.exec(path);
  if (inPackage) return inPackage[1];
  const inside = root && relative(root, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

// A function's identity across the two sides: its package, file within it and name; lines
// move when code is added above it, so they are shown but not part of the key, except for
// anonymous functions (differential.js pairs those that only moved).
function functionKey({ functionName, package: pkg, path, line, column }) {
  const where = `${pkg}\u0000${path}`;
  return functionName ? `${functionName}\u0000${where}` : `(anonymous)\u0000${where}:${line}:${column}`;
}

/**
 * @param {object} profile  a parsed .cpuprofile
 * @param {{root?: string}} where  the side's checkout, stripped from its own files' paths
 * @returns {Map<string, {functionName: string, path: string, line: number, column: number, package: string, selfMicros: number}>}
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
    const entry = {
      functionName: frame.functionName,
      path: scriptPath(frame.url, root),
      line: frame.lineNumber + 1,
      column: frame.columnNumber + 1,
      package: packageOf(frame.url && filePath(frame.url)),
    };
    const key = functionKey(entry);
    const known = functions.get(key) ?? { ...entry, functionName: entry.functionName || '(anonymous)', selfMicros: 0 };
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
