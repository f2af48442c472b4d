// Where the page reads its data: `?data=` (repeatable: one data.js per branch or benchmark
// folder, as `benchmark-data-dir-path` allows), else the action's default dev/bench/data.js.
// Only paths of the page's own site are read: a shared link must not run another site's script.
export const DEFAULT_DATA_PATH = 'dev/bench/data.js';

export class ForeignDataError extends Error {}

export function dataPaths(search, pageUrl) {
  const paths = new URLSearchParams(search)
    .getAll('data')
    .map((path) => path.trim())
    .filter(Boolean);
  for (const path of paths) {
    if (new URL(path, pageUrl).origin !== new URL(pageUrl).origin) {
      throw new ForeignDataError(
        `?data=${path} is not on this site: give a path such as ${DEFAULT_DATA_PATH} or main/dev/bench/data.js`,
      );
    }
  }
  return paths.length ? [...new Set(paths)] : [DEFAULT_DATA_PATH];
}

// Short names that tell several data files apart: what is left of each path once the
// folders and file name they all share are dropped ("main/dev/bench/data.js" and
// "pr-12/dev/bench/data.js" -> "main", "pr-12"). Used by the page and by npm run site.
export function sourceLabels(paths) {
  if (paths.length === 1) return [paths[0]];
  const parts = paths.map((path) => path.split(/[\\/]+/).filter(Boolean));
  const same = (pick) => new Set(parts.map(pick)).size === 1;
  let head = 0;
  while (parts.every((segments) => head < segments.length - 1) && same((segments) => segments[head])) head += 1;
  let tail = 0;
  while (
    parts.every((segments) => segments.length - 1 - tail > head) &&
    same((segments) => segments[segments.length - 1 - tail])
  )
    tail += 1;
  return parts.map((segments, index) => {
    const label = segments
      .slice(head, segments.length - tail)
      .join('/')
      .replace(/\.js$/, '');
    return label || paths[index];
  });
}
