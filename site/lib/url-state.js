// The view and its filters live in the URL query so a view can be shared by its link.
// Lists are repeated parameters (?scenario=a&scenario=b) because scenario labels
// contain commas ("proxy[delay=500ms,log=on]"). Defaults are left out of the URL;
// ?data= (which files to read) is kept as it came.
const VIEWS = ['trend', 'tiers', 'variants'];
export const FILTER_KEYS = ['suite', 'variant', 'runtime', 'scenario', 'tier', 'metric'];
// The action's default alert-threshold, "200%": the neighbour-ratio mark is opt-in.
export const DEFAULT_THRESHOLD = 2;

// "1.2" or the action's own style "120%"; null (no marks) when absent or not above 1.
function parseThreshold(text) {
  if (text === null || text === undefined) return null;
  const value = String(text).trim().endsWith('%') ? Number.parseFloat(text) / 100 : Number(text);
  return Number.isFinite(value) && value > 1 ? value : null;
}

export function readState(search) {
  const params = new URLSearchParams(search);
  const state = {
    view: VIEWS.includes(params.get('view')) ? params.get('view') : VIEWS[0],
    commit: params.get('commit') || null,
    threshold: parseThreshold(params.get('threshold')),
    sort: params.get('sort') || null,
    search: params.get('q') || '',
    data: params.getAll('data'),
  };
  // null: no choice made (all, or the default metrics); []: the user deselected everything.
  for (const key of FILTER_KEYS) state[key] = params.has(key) ? params.getAll(key).filter(Boolean) : null;
  return state;
}

export function writeState(state) {
  const params = new URLSearchParams();
  for (const path of state.data ?? []) params.append('data', path);
  if (state.view !== VIEWS[0]) params.set('view', state.view);
  for (const key of FILTER_KEYS) {
    if (state[key] === null) continue;
    if (state[key].length === 0) params.append(key, '');
    for (const value of state[key]) params.append(key, value);
  }
  if (state.search) params.set('q', state.search);
  if (state.commit) params.set('commit', state.commit);
  if (state.threshold !== null) params.set('threshold', `${Math.round(state.threshold * 100)}%`);
  if (state.sort) params.set('sort', state.sort);
  const query = params.toString();
  return query ? `?${query}` : '';
}
