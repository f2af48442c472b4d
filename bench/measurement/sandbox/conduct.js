// What a sandboxed side did that it should not have, as the harness saw it (processes left
// running outside its server's process group, processes still alive after a run). Recorded per
// side label while a comparison runs, and written into comparison.json and its report.
const seen = new Map();

export function recordMisbehaviour(side, what) {
  const list = seen.get(side) ?? [];
  if (!list.includes(what) && list.length < 20) list.push(what);
  seen.set(side, list);
}

/** What side `side` did so far; clears it. */
export function takeMisbehaviour(side) {
  const list = seen.get(side) ?? [];
  seen.delete(side);
  return list;
}
