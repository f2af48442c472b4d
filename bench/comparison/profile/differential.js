// Pure: the differential profile of two sides measured under the same load, as CPU cost (or
// bytes allocated) per request of every function, ranked by how much it grew (CodSpeed's
// differential flame graphs, reduced to the table a reviewer reads first).

import { isRuntimePackage } from './cpuprofile.js';

const ANONYMOUS = '(anonymous)';

// An anonymous function has only its place for a name, and code added above it moves its line
// (not its column): one seen only in base and one seen only in head, in the same file at the
// same column, are the same function, paired in line order when each side has as many.
function pairMovedAnonymous(rows) {
  const unpaired = new Map();
  for (const row of rows) {
    if (row.functionName !== ANONYMOUS || (row.base > 0 && row.head > 0)) continue;
    const place = `${row.package}\u0000${row.path}\u0000${row.column}`;
    const group = unpaired.get(place) ?? { base: [], head: [] };
    group[row.head > 0 ? 'head' : 'base'].push(row);
    unpaired.set(place, group);
  }
  const merged = new Set();
  for (const { base, head } of unpaired.values()) {
    if (base.length !== head.length) continue;
    const byLine = (a, b) => a.line - b.line;
    base.sort(byLine);
    head.sort(byLine);
    base.forEach((row, index) => {
      head[index].base = row.base;
      head[index].varianceBase = row.varianceBase;
      merged.add(row);
    });
  }
  return rows.filter((row) => !merged.has(row));
}

// A sampled amount's uncertainty: a function seen in n samples has a self time (or allocation)
// known to about one sample's share of √n (sampling is a count), per request.
const variance = (amount, samples, requests) => (samples > 0 ? (amount / requests) ** 2 / samples : 0);

// About a 95 % bound on a change between two sides' sampled times.
const uncertaintyOf = (row) => 2 * Math.sqrt(row.varianceBase + row.varianceHead);

// The rows of both sides keyed alike, per request, with their change and its uncertainty.
function joinSides(sides, fresh, field) {
  const rows = new Map();
  for (const [side, { entries, requests }] of Object.entries(sides)) {
    for (const [key, entry] of entries) {
      const row = rows.get(key) ?? { ...fresh(entry), base: 0, head: 0, varianceBase: 0, varianceHead: 0 };
      row[side] = entry[field] / requests;
      row[side === 'base' ? 'varianceBase' : 'varianceHead'] = variance(entry[field], entry.samples, requests);
      if (side === 'head' && 'line' in row) row.line = entry.line; // where it is now
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

const finish = ({ varianceBase, varianceHead, ...row }) => ({
  ...row,
  change: row.head - row.base,
  uncertainty: uncertaintyOf({ varianceBase, varianceHead }),
});

// Growth first by what is certain of it (its change less its uncertainty), so that a large
// change of a rarely sampled function does not stand above a steady one's. An artifact's row may
// carry no uncertainty (its schema makes it optional): then its change is all that is known.
const uncertaintyOfRow = (row) => row.uncertainty ?? 0;
export const byCertainGrowth = (a, b) => b.change - uncertaintyOfRow(b) - (a.change - uncertaintyOfRow(a));
const byCertainShrink = (a, b) => a.change + uncertaintyOfRow(a) - (b.change + uncertaintyOfRow(b));

/**
 * @param {{base: {functions: Map, packages?: Map, requests: number}, head: object}} sides
 *   functions: from selfTimes/mergeSelfTimes (or selfBytes); packages: from packageTimes (or
 *   packageBytes); requests: completed during the profiled window
 * @param {{top?: number, field?: string}} options  field: the entries' amount (selfMicros, selfBytes)
 * @returns {{packages: object[], grew: object[], shrank: object[], totals: {base: number, head: number}}}
 *   the amount per request; each row's `uncertainty` bounds its change (about 95 %)
 */
export function differentialProfile({ base, head }, { top = 10, field = 'selfMicros' } = {}) {
  if (!(base.requests > 0) || !(head.requests > 0))
    throw new Error('a profiled side completed no requests: nothing to divide by');
  const functionRows = joinSides(
    {
      base: { entries: base.functions, requests: base.requests },
      head: { entries: head.functions, requests: head.requests },
    },
    (entry) => ({
      functionName: entry.functionName,
      path: entry.path,
      line: entry.line,
      column: entry.column,
      package: entry.package,
    }),
    field,
  );
  const all = pairMovedAnonymous(functionRows).map(finish);
  const packages = joinSides(
    {
      base: { entries: base.packages ?? new Map(), requests: base.requests },
      head: { entries: head.packages ?? new Map(), requests: head.requests },
    },
    (entry) => ({ package: entry.package }),
    field,
  )
    .map(finish)
    // Your code and its packages first, then the runtime's own rows.
    .sort(
      (a, b) => isRuntimePackage(a.package) - isRuntimePackage(b.package) || Math.abs(b.change) - Math.abs(a.change),
    )
    .slice(0, top);
  const total = (side) => all.reduce((sum, row) => sum + row[side], 0);
  return {
    packages,
    grew: all
      .filter((row) => row.change > 0)
      .sort(byCertainGrowth)
      .slice(0, top),
    shrank: all
      .filter((row) => row.change < 0)
      .sort(byCertainShrink)
      .slice(0, top),
    totals: { base: total('base'), head: total('head') },
  };
}
