// The trend site's page: loads dev/bench/data.js (and the optional verdicts.js), keeps the
// view in the URL, and draws the three views with Chart.js. Data shaping lives in lib/.
import { MalformedDataError, readBenchmarkData } from './lib/benchmark-data.js';
import { chosenMetrics, filterChoices } from './lib/filters.js';
import { formatChange, formatDate, formatNumber, formatShare, formatValue } from './lib/format.js';
import { paletteFor } from './lib/palette.js';
import { markedPoints, trendGroups } from './lib/trend.js';
import { tierCurves } from './lib/tiers.js';
import { readState, writeState, FILTER_KEYS } from './lib/url-state.js';
import { barSeries, cellValue, nextSort, sortRows, variantTable } from './lib/variants-table.js';
import { readVerdicts } from './lib/verdicts.js';
import { barChartConfig, tierChartConfig, trendChartConfig } from './lib/chart-configs.js';

const DATA_SCRIPT = 'dev/bench/data.js';
const VERDICTS_SCRIPT = 'dev/bench/verdicts.js';
const MARKED_ROWS = 50;
const NO_DATA = 'No data yet: run npm run bench';

const $ = (selector) => document.querySelector(selector);

// Builds an element from text only (never HTML): commit messages and bench names are data.
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

function showStatus(message, kind) {
  const status = $('#status');
  status.textContent = message;
  status.className = `status ${kind}`;
  status.hidden = false;
}

const showProblem = (message) => showStatus(message, 'problem');

// A script the page cannot do without must not fail silently: anything thrown ends up on the page.
window.addEventListener('error', (event) => {
  if (!event.filename?.includes('/dev/bench/')) showProblem(`The page failed: ${event.message}`);
});
window.addEventListener('unhandledrejection', (event) => showProblem(`The page failed: ${event.reason?.message ?? event.reason}`));

// Loads a classic script and tells apart "not there" (404) from "there but broken" (a syntax
// error, reported through window's error event before the script's load event).
function loadScript(src) {
  return new Promise((resolve) => {
    let syntaxError = null;
    const onError = (event) => {
      if (event.filename?.endsWith(src)) syntaxError = `${event.message.replace(/^Uncaught /, '')} (line ${event.lineno})`;
    };
    window.addEventListener('error', onError);
    const script = el('script', { src });
    const settle = (found) => () => {
      window.removeEventListener('error', onError);
      resolve({ found, syntaxError });
    };
    script.addEventListener('load', settle(true));
    script.addEventListener('error', settle(false));
    document.head.append(script);
  });
}

async function loadData() {
  const script = await loadScript(DATA_SCRIPT);
  if (!script.found) return { empty: `${NO_DATA} (${DATA_SCRIPT} was not found).` };
  if (script.syntaxError) return { problem: `${DATA_SCRIPT} is malformed and cannot be read: ${script.syntaxError}.` };
  try {
    const data = readBenchmarkData(window.BENCHMARK_DATA);
    return data.commits.length === 0 ? { empty: `${NO_DATA} (${DATA_SCRIPT} has no runs).` } : { data };
  } catch (error) {
    if (error instanceof MalformedDataError) return { problem: `${DATA_SCRIPT} is malformed: ${error.message}.` };
    throw error;
  }
}

async function loadVerdicts() {
  const script = await loadScript(VERDICTS_SCRIPT);
  if (script.syntaxError) return { byCommit: {}, problem: `${VERDICTS_SCRIPT} is malformed (${script.syntaxError}); verdicts are not shown` };
  return readVerdicts(window.PERFGATE_VERDICTS);
}

// The page's whole state: loaded once, then re-rendered from the URL state on every change.
const page = { data: null, verdicts: null, choices: null, colours: null, state: null, charts: [] };

function theme() {
  const style = getComputedStyle(document.documentElement);
  const colour = (name) => style.getPropertyValue(name).trim();
  return { text: colour('--text'), muted: colour('--muted'), grid: colour('--grid') };
}

function draw(canvas, config) {
  page.charts.push(new window.Chart(canvas, config));
}

function chartCard(title) {
  const canvas = el('canvas', { role: 'img', 'aria-label': title });
  const card = el('figure', { class: 'chart-card', 'data-chart': title }, el('figcaption', {}, title), el('div', { class: 'chart-box' }, canvas));
  return { card, canvas };
}

// The chosen commit for the tier and variant views: ?commit= (full or short sha), else the latest.
function selectedCommit() {
  const { commits } = page.data;
  const wanted = page.state.commit;
  const found = wanted ? commits.findIndex((commit) => commit.id.startsWith(wanted)) : -1;
  return found >= 0 ? found : commits.length - 1;
}

function openCommit(index) {
  const { url } = page.data.commits[index];
  if (url) window.open(url, '_blank', 'noopener');
}

function commitLink(commit) {
  return commit.url ? el('a', { href: commit.url, target: '_blank', rel: 'noopener' }, commit.short) : el('span', {}, commit.short);
}

function nothingMatches() {
  const noVariants = page.state.view !== 'trend' && page.choices.variant.length === 0;
  return el('p', { class: 'empty' }, noVariants
    ? 'These benchmarks name no variants (their names are not in perfgate\'s form): only the Trend view applies.'
    : 'Nothing matches these filters at this point.');
}

function renderTrend() {
  const groups = trendGroups(page.data, page.state, page.choices, page.verdicts);
  const holder = $('#trend-charts');
  holder.replaceChildren(...(groups.length ? [] : [nothingMatches()]));
  for (const group of groups) {
    const { card, canvas } = chartCard(group.title);
    holder.append(card);
    draw(canvas, trendChartConfig(group, { commits: page.data.commits, colours: page.colours, theme: theme(), onPointClick: openCommit }));
  }
  renderMarked(markedPoints(groups));
}

const reasonOf = (point) => [point.regression ? '▲ over the alert threshold' : '', point.verdict ? `verdict: ${point.verdict}` : ''].filter(Boolean).join(', ');

function renderMarked(marked) {
  const rows = marked.slice(0, MARKED_ROWS).map((point) => {
    const commit = page.data.commits[point.commit];
    return el('tr', {},
      el('td', {}, commitLink(commit)),
      el('td', {}, formatDate(commit.timestamp)),
      el('td', {}, point.name),
      el('td', { class: 'number' }, formatValue(point.value, point.unit)),
      el('td', { class: 'number' }, formatChange(point.change)),
      el('td', { class: point.verdict === 'improvement' ? 'good' : 'bad' }, reasonOf(point)));
  });
  const more = marked.length > MARKED_ROWS ? el('caption', { class: 'muted' }, `${marked.length - MARKED_ROWS} older marked points not listed`) : null;
  const head = el('thead', {}, el('tr', {}, ...['commit', 'date', 'benchmark', 'value', 'change', 'why'].map((label) => el('th', {}, label))));
  const body = el('tbody', {}, ...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 6, class: 'empty' }, 'No marked points in this view.'))]));
  $('#marked').replaceChildren(...[more, head, body].filter(Boolean));
}

function renderTiers() {
  const curves = tierCurves(page.data, selectedCommit(), page.state);
  const holder = $('#tier-charts');
  holder.replaceChildren(...(curves.length ? [] : [nothingMatches()]));
  for (const curve of curves) {
    const { card, canvas } = chartCard(`${curve.scenario} · tier curve`);
    const knees = curve.variants.map((variant) => el('li', {},
      el('strong', {}, variant.variant), ': ',
      variant.knee ? `★ knee at c=${variant.knee.tier} (${variant.knee.reason})` : `no knee up to c=${variant.points.at(-1).tier}`));
    card.append(el('ul', { class: 'knees' }, ...knees));
    holder.append(card);
    draw(canvas, tierChartConfig(curve, { colours: page.colours, theme: theme() }));
  }
}

function renderVariants() {
  const { columns, rows, machines } = variantTable(page.data, selectedCommit(), page.state);
  const metric = chosenMetrics(page.state, page.choices).find((candidate) => columns.some((column) => column.key === candidate)) ?? 'req/s';
  const unit = columns.find((column) => column.key === metric)?.unit ?? '';
  const card = $('#variant-bars').closest('figure');
  card.hidden = rows.length === 0;
  $('#bars-title').textContent = `${metric} by variant`;
  if (rows.length) draw($('#variant-bars'), barChartConfig(barSeries(rows, metric), { metric, unit, colours: page.colours, theme: theme() }));
  renderVariantTable(columns, sortRows(rows, page.state.sort));
  $('#machines').textContent = machines.length ? `Measured on ${machines.join('; ')}.` : '';
}

function renderVariantTable(columns, rows) {
  const sortedBy = page.state.sort?.replace(/^-/, '');
  const direction = page.state.sort?.startsWith('-') ? 'descending' : 'ascending';
  const header = columns.map((column) => el('th', { 'aria-sort': column.key === sortedBy ? direction : null, class: column.numeric ? 'number' : null },
    el('button', { type: 'button', 'data-sort': column.key, onclick: () => update({ sort: nextSort(page.state.sort, column) }) }, column.label)));
  const cell = (row, column) => {
    // The load generator was the bottleneck: the row's numbers are a lower bound.
    if (column.key === 'variant' && row.clientSaturated) return el('td', { title: 'client saturated: numbers are a lower bound' }, `${row.variant} ⚠`);
    if (!column.numeric) return el('td', {}, row[column.key]);
    const value = cellValue(row, column.key);
    return el('td', { class: 'number' }, column.key === 'vs best' ? (value === undefined ? '–' : formatShare(value)) : formatNumber(value));
  };
  const body = rows.map((row) => el('tr', {}, ...columns.map((column) => cell(row, column))));
  $('#variant-table').replaceChildren(
    el('thead', {}, el('tr', {}, ...header)),
    el('tbody', {}, ...(body.length ? body : [el('tr', {}, el('td', { colspan: columns.length }, nothingMatches()))])));
}

const RENDERERS = { trend: renderTrend, tiers: renderTiers, variants: renderVariants };
// Which filters and controls mean something in each view.
const APPLIES = {
  trend: ['variant', 'scenario', 'tier', 'metric', 'threshold'],
  tiers: ['variant', 'scenario', 'commit'],
  variants: ['variant', 'scenario', 'tier', 'metric', 'commit'],
};

function renderFilters() {
  const { state, choices } = page;
  for (const key of FILTER_KEYS) {
    const chosen = key === 'metric' ? chosenMetrics(state, choices) : state[key] ?? choices[key];
    const chips = choices[key].map((value) => el('button', {
      type: 'button',
      class: 'chip',
      'data-value': value,
      'aria-pressed': String(chosen.includes(value)),
      onclick: () => toggleFilter(key, value),
    }, key === 'tier' ? `c=${value}` : value));
    const fieldset = $(`fieldset[data-filter="${key}"]`);
    fieldset.querySelector('.chips').replaceChildren(...chips);
    fieldset.hidden = choices[key].length === 0;
    fieldset.disabled = !APPLIES[state.view].includes(key);
  }
  for (const control of ['commit', 'threshold']) $(`[data-control="${control}"]`).classList.toggle('inactive', !APPLIES[state.view].includes(control));
  $('#commit').value = String(selectedCommit());
  $('#threshold').value = String(state.threshold);
  for (const tab of document.querySelectorAll('.tabs button')) tab.setAttribute('aria-current', String(tab.dataset.view === state.view));
  for (const panel of document.querySelectorAll('[data-view-panel]')) panel.hidden = panel.dataset.viewPanel !== state.view;
}

function toggleFilter(key, value) {
  const { state, choices } = page;
  const current = key === 'metric' ? chosenMetrics(state, choices) : state[key] ?? choices[key];
  const next = current.includes(value) ? current.filter((item) => item !== value) : [...current, value];
  // Everything chosen is the same as no filter, and keeps the shared URL short.
  const everything = key !== 'metric' && choices[key].every((item) => next.includes(item));
  update({ [key]: everything ? null : choices[key].filter((item) => next.includes(item)) });
}

function render() {
  for (const chart of page.charts) chart.destroy();
  page.charts = [];
  renderFilters();
  RENDERERS[page.state.view]();
}

function update(changes) {
  page.state = { ...page.state, ...changes };
  history.replaceState(null, '', `${location.pathname}${writeState(page.state)}${location.hash}`);
  render();
}

function wireControls() {
  for (const tab of document.querySelectorAll('.tabs button')) tab.addEventListener('click', () => update({ view: tab.dataset.view }));
  const commitSelect = $('#commit');
  const { commits } = page.data;
  commitSelect.replaceChildren(...commits.map((commit, index) => el('option', { value: String(index) },
    `${commit.short} · ${formatDate(commit.timestamp)} · ${commit.message}`.slice(0, 90))).reverse());
  commitSelect.addEventListener('change', () => {
    const index = Number(commitSelect.value);
    update({ commit: index === commits.length - 1 ? null : commits[index].short });
  });
  $('#threshold').addEventListener('change', (event) => {
    const value = Number(event.target.value);
    if (Number.isFinite(value) && value > 1) update({ threshold: value });
  });
  $('#reset').addEventListener('click', () => update(Object.fromEntries(FILTER_KEYS.map((key) => [key, null]))));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', render);
}

function describeSource(data) {
  const source = $('#source');
  const last = data.lastUpdate ? ` · updated ${formatDate(data.lastUpdate)} UTC` : '';
  const repo = data.repoUrl ? el('a', { href: data.repoUrl }, data.repoUrl.replace(/^https?:\/\/(www\.)?github\.com\//, '')) : 'local history';
  source.replaceChildren(repo, ` · ${data.commits.length} commit${data.commits.length === 1 ? '' : 's'}${last}`);
}

function showWarnings(messages) {
  const list = $('#warnings');
  list.replaceChildren(...messages.map((message) => el('li', {}, message)));
  list.hidden = messages.length === 0;
}

async function start() {
  if (typeof window.Chart !== 'function') {
    showProblem('Chart.js did not load (vendor/chart.umd.js is missing), so no chart can be drawn.');
    return;
  }
  const loaded = await loadData();
  if (loaded.problem) return showProblem(loaded.problem);
  if (loaded.empty) return showStatus(loaded.empty, 'empty');
  page.data = loaded.data;
  page.verdicts = await loadVerdicts();
  page.choices = filterChoices(page.data.samples);
  page.colours = paletteFor(page.data.samples.map((sample) => sample.variant ?? sample.name));
  page.state = readState(location.search);
  showWarnings([
    page.data.skipped ? `${page.data.skipped} malformed runs or benches in ${DATA_SCRIPT} were skipped.` : '',
    page.verdicts.problem ?? '',
  ].filter(Boolean));
  describeSource(page.data);
  wireControls();
  // On a phone the charts come first; the filters fold away behind their summary.
  if (window.matchMedia('(max-width: 600px)').matches) $('#filters').open = false;
  $('#status').hidden = true;
  $('#app').hidden = false;
  render();
}

start().catch((error) => showProblem(`The page failed: ${error.message}`));
