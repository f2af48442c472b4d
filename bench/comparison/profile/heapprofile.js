// Pure: a V8 .heapprofile (the inspector's HeapProfiler.stopSampling, or Chrome DevTools'
// allocation sampling) turned into bytes allocated per function and per package, keyed and
// charged as the CPU profile's time is (cpuprofile.js). A node's selfSize is V8's estimate of
// the bytes allocated there, each sample scaled up by its chance of being sampled; its sample
// count gives the estimate's uncertainty (differential.js).
import { functionTotals, packageTotals } from './cpuprofile.js';

// The call tree as a .cpuprofile's flat node list, with each allocating node's bytes and samples.
function callTree(profile) {
  const nodes = [];
  const sampled = new Map();
  const counts = new Map();
  for (const { nodeId } of profile.samples ?? []) counts.set(nodeId, (counts.get(nodeId) ?? 0) + 1);
  const pending = [profile.head];
  while (pending.length) {
    const node = pending.pop();
    const children = node.children ?? [];
    nodes.push({ id: node.id, callFrame: node.callFrame, children: children.map((child) => child.id) });
    if (node.selfSize > 0) sampled.set(node.id, { amount: node.selfSize, samples: counts.get(node.id) ?? 1 });
    pending.push(...children);
  }
  return { nodes, sampled };
}

/**
 * @param {object} profile  a parsed .heapprofile
 * @param {{root?: string}} where  the side's checkout, stripped from its own files' paths
 * @returns {Map<string, {functionName: string, path: string, line: number, column: number, package: string, selfBytes: number, samples: number}>}
 */
export const selfBytes = (profile, where) => functionTotals(callTree(profile), where, 'selfBytes');

/** Bytes allocated per package, each charged to the package whose code is nearest on its stack. */
export const packageBytes = (profile) => packageTotals(callTree(profile), 'selfBytes');
