// The view and its filters live in the URL query so a view can be shared by its link.
// Lists are repeated parameters (?scenario=a&scenario=b) because scenario labels
// contain commas ("proxy[delay=500ms,log=on]"). Defaults are left out of the URL.
const VIEWS = ['trend', 'tiers', 'variants'];
export const FILTER_KEYS = ['variant', 'scenario', 'tier', 'metric'];
// perfgate's default alert: 10 % worse than the previous point.
export const DEFAULT_THRESHOLD = 1.1;

// "1.2" or the action's own style "120%"; anything not above 1 falls back to the default.
function parseThreshold(text) {
  if (text === null) return DEFAULT_THRESHOLD;
  const value = text.trim().endsWith('%') ? Number.parseFloat(text) / 100 : Number(text);
  return Number.isFinite(value) && value > 1 ? value : DEFAULT_THRESHOLD;
}

export function readState(search) {
  const params = new URLSearchParams(search);
  const state = {
    view: VIEWS.includes(params.get('view')) ? params.get('view') : VIEWS[0],
    commit: params.get('commit') || null,
    threshold: parseThreshold(params.get('threshold')),
    sort: params.get('sort') || null,
  };
  // null: no choice made (all, or the default metrics); []: the user deselected everything.
  for (const key of FILTER_KEYS) state[key] = params.has(key) ? params.getAll(key).filter(Boolean) : null;
  return state;
}

export function writeState(state) {
  const params = new URLSearchParams();
  if (state.view !== VIEWS[0]) params.set('view', state.view);
  for (const key of FILTER_KEYS) {
    if (state[key] === null) continue;
    if (state[key].length === 0) params.append(key, '');
    for (const value of state[key]) params.append(key, value);
  }
  if (state.commit) params.set('commit', state.commit);
  if (state.threshold !== DEFAULT_THRESHOLD) params.set('threshold', String(state.threshold));
  if (state.sort) params.set('sort', state.sort);
  const query = params.toString();
  return query ? `?${query}` : '';
}
