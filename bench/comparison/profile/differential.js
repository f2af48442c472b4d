// Pure: the differential profile of two sides measured under the same load, as CPU cost per
// request of every function, ranked by how much it grew (CodSpeed's differential flame graphs,
// reduced to the table a reviewer reads first).

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
      merged.add(row);
    });
  }
  return rows.filter((row) => !merged.has(row));
}

/**
 * @param {{base: {functions: Map, requests: number}, head: {functions: Map, requests: number}}} sides
 *   functions: from selfTimes/mergeSelfTimes; requests: completed during the profiled window
 * @returns {{grew: object[], shrank: object[], totals: {base: number, head: number}}} µs per request
 */
export function differentialProfile({ base, head }, { top = 10 } = {}) {
  if (!(base.requests > 0) || !(head.requests > 0))
    throw new Error('a profiled side completed no requests: nothing to divide by');
  const rows = new Map();
  for (const [side, { functions, requests }] of Object.entries({ base, head })) {
    for (const [key, entry] of functions) {
      const row = rows.get(key) ?? {
        functionName: entry.functionName,
        path: entry.path,
        line: entry.line,
        column: entry.column,
        package: entry.package,
        base: 0,
        head: 0,
      };
      row[side] = entry.selfMicros / requests;
      if (side === 'head') row.line = entry.line; // where it is now
      rows.set(key, row);
    }
  }
  const all = pairMovedAnonymous([...rows.values()]).map((row) => ({ ...row, change: row.head - row.base }));
  const total = (side) => all.reduce((sum, row) => sum + row[side], 0);
  return {
    grew: all
      .filter((row) => row.change > 0)
      .sort((a, b) => b.change - a.change)
      .slice(0, top),
    shrank: all
      .filter((row) => row.change < 0)
      .sort((a, b) => a.change - b.change)
      .slice(0, top),
    totals: { base: total('base'), head: total('head') },
  };
}
