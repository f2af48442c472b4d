// Pure: a V8 .cpuprofile (what --cpu-prof and the inspector's Profiler.stop produce) turned
// into self time per function. A sample's duration is the gap to the next sample, as Chrome
// DevTools counts it; the last sample runs to the profile's end. How a call tree's frames are
// keyed and charged to packages is shared with the allocation profile (heapprofile.js).
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not work of the server: the profiler's own idle and the tree's root.
const NOT_WORK = new Set(['(idle)', '(root)']);

// A script's file path: what V8 reports, a file:// URL or a name such as node:http.
const filePath = (url) => (url.startsWith('file://') ? fileURLToPath(url) : url);

// The package of the side's own code (not in a node_modules folder).
const APP = '(app)';

// The npm package a script belongs to (the innermost node_modules folder), or what else it is.
export function packageOf(path) {
  if (!path) return '(native)';
  if (path.startsWith('node:')) return 'node';
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return match ? match[1] : APP;
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

// Each sampled node's time and sample count (a sample lasts until the next one).
function sampledNodes(profile) {
  const sampled = new Map();
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((nodeId, index) => {
    const duration = (times[index + 1] ?? profile.endTime) - times[index];
    if (!(duration > 0)) return;
    const known = sampled.get(nodeId) ?? { amount: 0, samples: 0 };
    known.amount += duration;
    known.samples += 1;
    sampled.set(nodeId, known);
  });
  return sampled;
}

const addTo = (map, key, fresh, field, { amount, samples }) => {
  const known = map.get(key) ?? { ...fresh, [field]: 0, samples: 0 };
  known[field] += amount;
  known.samples += samples;
  map.set(key, known);
};

/**
 * A call tree's sampled amounts per function, keyed alike on both sides.
 * @param {{nodes: {id: number, callFrame: object, children?: number[]}[], sampled: Map<number, {amount: number, samples: number}>}} tree
 * @param {{root?: string}} where  the side's checkout, stripped from its own files' paths
 * @param {string} field  the entries' name for the amount (selfMicros, selfBytes)
 */
export function functionTotals({ nodes, sampled }, { root } = {}, field = 'selfMicros') {
  const frames = new Map(nodes.map((node) => [node.id, node.callFrame]));
  const functions = new Map();
  for (const [nodeId, amounts] of sampled) {
    const frame = frames.get(nodeId);
    if (NOT_WORK.has(frame.functionName)) continue;
    const entry = {
      functionName: frame.functionName,
      path: scriptPath(frame.url, root),
      line: frame.lineNumber + 1,
      column: frame.columnNumber + 1,
      package: packageOf(frame.url && filePath(frame.url)),
    };
    addTo(
      functions,
      functionKey(entry),
      { ...entry, functionName: entry.functionName || '(anonymous)' },
      field,
      amounts,
    );
  }
  return functions;
}

/**
 * @param {object} profile  a parsed .cpuprofile
 * @param {{root?: string}} where  the side's checkout, stripped from its own files' paths
 * @returns {Map<string, {functionName: string, path: string, line: number, column: number, package: string, selfMicros: number, samples: number}>}
 */
export const selfTimes = (profile, where) =>
  functionTotals({ nodes: profile.nodes, sampled: sampledNodes(profile) }, where);

// Code that runs for its caller: Node's own modules and native code (a header set, a stat).
const RUNS_FOR_CALLER = new Set(['node', '(native)']);

// A package row that is the runtime's own work: Node's, native, or V8's entries without a
// script ((garbage collector), (program)), which no package's code was on the stack for.
export const isRuntimePackage = (name) => RUNS_FOR_CALLER.has(name) || (name.startsWith('(') && name !== APP);

// The package a stack's time is spent for: the nearest frame, from the sampled one up, that
// belongs to the application or an npm package. A stack with none keeps its own frame's
// package; V8's own entries without a script ((garbage collector), (program)) have no caller
// in the profile, so they stay under their own name.
function ownerOf(nodeId, frames, parents) {
  const own = frames.get(nodeId);
  if (!own.url && own.functionName.startsWith('(')) return own.functionName;
  for (let id = nodeId; id !== undefined; id = parents.get(id)) {
    const frame = frames.get(id);
    const pkg = packageOf(frame.url && filePath(frame.url));
    if (!RUNS_FOR_CALLER.has(pkg)) return pkg;
  }
  return packageOf(own.url && filePath(own.url));
}

/** A call tree's sampled amounts per package, as functionTotals' per function. */
export function packageTotals({ nodes, sampled }, field = 'selfMicros') {
  const frames = new Map(nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map(nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id])));
  const packages = new Map();
  for (const [nodeId, amounts] of sampled) {
    if (NOT_WORK.has(frames.get(nodeId).functionName)) continue;
    const owner = ownerOf(nodeId, frames, parents);
    addTo(packages, owner, { package: owner }, field, amounts);
  }
  return packages;
}

/**
 * Time per package, each sample charged to the package whose code is nearest on its stack.
 * @param {object} profile  a parsed .cpuprofile
 * @returns {Map<string, {package: string, selfMicros: number, samples: number}>}
 */
export const packageTimes = (profile) => packageTotals({ nodes: profile.nodes, sampled: sampledNodes(profile) });

// Several processes of one side (cluster workers, upstreams) add up; so do their packages.
export function mergeSelfTimes(maps, field = 'selfMicros') {
  const merged = new Map();
  for (const map of maps) {
    for (const [key, entry] of map) {
      const known = merged.get(key);
      if (known) {
        known[field] += entry[field];
        known.samples += entry.samples ?? 0;
      } else merged.set(key, { ...entry });
    }
  }
  return merged;
}
