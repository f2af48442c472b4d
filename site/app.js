// The trend site's page: reads the data.js files through a worker (site/data-worker.js),
// keeps the view in the URL, and draws the three views with Chart.js. Data shaping lives in lib/.
import { variantLabel } from './shared/bench-name.js';
import { chosenMetrics } from './lib/filters.js';
import { formatChange, formatDate, formatNumber, formatShare, formatValue } from './lib/format.js';
import { paletteFor } from './lib/palette.js';
import { markedPoints, trendSections } from './lib/trend.js';
import { rateCurves, tierCurves } from './lib/tiers.js';
import { readState, writeState, FILTER_KEYS, DEFAULT_THRESHOLD } from './lib/url-state.js';
import { barSeries, cellValue, nextSort, sortRows, variantTable } from './lib/variants-table.js';
import {
  addChangePointOverlay,
  barChartConfig,
  changePointOverlay,
  isWorse,
  rateChartConfig,
  tierChartConfig,
  trendChartConfig,
} from './lib/chart-configs.js';
import { DEFAULT_DATA_PATH } from './shared/sources.js';
import { closedLoad, loadTag } from './shared/load-point.js';
import { $, el, showProblem, showStatus } from './dom.js';
import { hideTooltip, showTooltip } from './tooltip.js';
import { unpackSamples } from './lib/sample-transfer.js';
import { seriesByKey } from './lib/series.js';
import { repoTitle } from './lib/repo.js';
import { baseMetricOf } from './shared/relative.js';
import { projectOfSuites } from './shared/suite-names.js';

const LISTED_ROWS = 50;
const SEARCH_DELAY_MS = 200;
// Charts are drawn when they come near the screen: a history with hundreds of benches opens as fast as one with ten.
const DRAW_MARGIN = '600px 0px';

// Anything thrown ends up on the page, never in a silent console.
window.addEventListener('error', (event) => showProblem(`The page failed: ${event.message}`));
window.addEventListener('unhandledrejection', (event) =>
  showProblem(`The page failed: ${event.reason?.message ?? event.reason}`),
);

// The page's whole state: loaded once, then re-rendered from the URL state on every change.
const page = {
  worker: null,
  data: null,
  choices: null,
  colours: null,
  state: null,
  charts: [],
  observer: null,
  toDraw: [],
  drawn: new Map(),
  changePointsWanted: null,
  changePoints: new Map(),
  changePointsFailed: null,
  shownKeys: [],
};

function theme() {
  const style = getComputedStyle(document.documentElement);
  const colour = (name) => style.getPropertyValue(name).trim();
  return { text: colour('--text'), muted: colour('--muted'), grid: colour('--grid') };
}

function draw(canvas, config) {
  const chart = new window.Chart(canvas, config);
  page.charts.push(chart);
  return chart;
}

function chartCard(title, attributes = {}) {
  const canvas = el('canvas', { role: 'img', 'aria-label': title });
  const card = el(
    'figure',
    { class: 'chart-card', 'data-chart': title, ...attributes },
    el('figcaption', {}, title),
    el('div', { class: 'chart-box' }, canvas),
  );
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
  return commit.url
    ? el('a', { href: commit.url, target: '_blank', rel: 'noopener' }, commit.short)
    : el('span', {}, commit.short);
}

const nothingMatches = () => el('p', { class: 'empty' }, 'Nothing matches these filters.');

// ---- trend view
function drawTrend(card, group) {
  const chart = draw(
    card.querySelector('canvas'),
    trendChartConfig(group, {
      commits: page.data.commits,
      colours: page.colours,
      theme: theme(),
      onPointClick: openCommit,
      tooltip: (context) => showTooltip(context, { unit: group.unit, commits: page.data.commits }),
    }),
  );
  page.drawn.set(card, { chart, group, withChangePoints: new Set() });
  // Marks for the render timings in the browser tests and the README.
  if (performance.getEntriesByName('perfgate:first-chart').length === 0) performance.mark('perfgate:first-chart');
  addChangePoints(page.drawn.get(card));
}

function addChangePoints(drawn) {
  let added = false;
  for (const series of drawn.group.series) {
    const changePoints = page.changePoints.get(series.key);
    if (!changePoints || drawn.withChangePoints.has(series.key)) continue;
    drawn.withChangePoints.add(series.key);
    const overlay = changePointOverlay(series, changePoints, {
      colour: page.colours.get(series.label),
      biggerIsBetter: drawn.group.biggerIsBetter,
    });
    if (!overlay) continue;
    addChangePointOverlay(drawn.chart, overlay);
    added = true;
  }
  if (added) drawn.chart.update('none');
}

// One chart per task: a screenful of long histories is drawn chart by chart, never in one long freeze.
function queueDraw(card) {
  page.toDraw.push(card);
  if (page.toDraw.length === 1) setTimeout(drawNext, 0);
}

function drawNext() {
  const card = page.toDraw.shift();
  if (card?.isConnected && !page.drawn.has(card)) drawTrend(card, card.group);
  if (page.toDraw.length) setTimeout(drawNext, 0);
  else {
    // The first screen is drawn: what a headless screenshot waits for (docs/getting-started.md).
    document.documentElement.dataset.drawn = 'true';
    askForChangePoints();
  }
}

function askForChangePoints() {
  if (!page.changePointsWanted) return;
  page.worker.postMessage({ type: 'changePoints', keys: page.changePointsWanted });
  page.changePointsWanted = null;
}

function renderTrend() {
  const sections = trendSections(page.data, page.state, page.choices, page.series);
  const holder = $('#trend-charts');
  page.observer?.disconnect();
  page.observer = new IntersectionObserver(
    (seen) => {
      for (const { isIntersecting, target } of seen) {
        if (!isIntersecting) continue;
        page.observer.unobserve(target);
        queueDraw(target);
      }
    },
    { rootMargin: DRAW_MARGIN },
  );
  const charts = sections.reduce((count, section) => count + section.groups.length, 0);
  $('#trend-count').textContent =
    `${charts} chart${charts === 1 ? '' : 's'} in ${sections.length} suite${sections.length === 1 ? '' : 's'}`;
  holder.replaceChildren(...(sections.length ? [] : [nothingMatches()]));
  for (const section of sections) {
    const cards = section.groups.map((group) => {
      const { card } = chartCard(group.title, { 'data-suite': section.suite });
      card.group = group;
      page.observer.observe(card);
      return card;
    });
    holder.append(
      el(
        'section',
        { class: 'suite', 'data-suite': section.suite },
        el(
          'h2',
          {},
          section.suite,
          el('span', { class: 'muted' }, ` · ${cards.length} chart${cards.length === 1 ? '' : 's'}`),
        ),
        el('div', { class: 'charts' }, ...cards),
      ),
    );
  }
  page.shownKeys = sections.flatMap((section) =>
    section.groups.flatMap((group) => group.series.map((series) => ({ series, group }))),
  );
  page.marked = markedPoints(sections);
  // Change points of what is shown, in page order (the charts at the top get theirs first),
  // asked for once the first screenful is drawn (drawNext), so the detection does not slow that down.
  page.changePointsWanted = page.shownKeys.map(({ series }) => series.key);
  // What is on the screen now is queued now, without waiting for the observer's first report.
  for (const card of holder.querySelectorAll('figure[data-chart]')) {
    if (card.getBoundingClientRect().top > window.innerHeight) break;
    page.observer.unobserve(card);
    queueDraw(card);
  }
  if (page.toDraw.length === 0) askForChangePoints();
  renderListed();
}

// The change points (and the opt-in threshold marks) of the shown series, newest first.
function renderListed() {
  const rows = [];
  let pending = 0;
  for (const { series, group } of page.shownKeys) {
    const changePoints = page.changePoints.get(series.key);
    if (!changePoints) pending += 1;
    for (const changePoint of changePoints ?? []) {
      const { sample } = series.points[changePoint.index];
      rows.push({
        sample,
        name: series.name,
        unit: group.unit,
        why: `change point: ${formatValue(changePoint.before.mean, group.unit)} → ${formatValue(changePoint.after.mean, group.unit)}`,
        change: changePoint.change,
        worse: isWorse(changePoint, group.biggerIsBetter),
      });
    }
  }
  for (const point of page.marked) {
    rows.push({
      sample: point.sample,
      name: point.name,
      unit: point.unit,
      why: `▲ over the ${formatShare(page.state.threshold)} alert threshold`,
      change: point.change,
      worse: true,
    });
  }
  rows.sort((a, b) => b.sample.date - a.sample.date || a.name.localeCompare(b.name));
  const status = page.changePointsFailed
    ? `change points could not be computed: ${page.changePointsFailed}`
    : pending
      ? `finding change points… ${page.shownKeys.length - pending} of ${page.shownKeys.length} series done`
      : '';
  $('#listed-status').textContent = status;
  const body = rows.slice(0, LISTED_ROWS).map((row) => {
    const commit = page.data.commits[row.sample.commit];
    return el(
      'tr',
      {},
      el('td', {}, commitLink(commit)),
      el('td', {}, formatDate(row.sample.date)),
      el('td', {}, row.sample.suite),
      el('td', {}, row.name),
      el('td', { class: 'number' }, formatValue(row.sample.value, row.unit)),
      el('td', { class: `number ${row.worse ? 'bad' : 'good'}` }, formatChange(row.change)),
      el('td', {}, row.why),
    );
  });
  const more =
    rows.length > LISTED_ROWS
      ? el('caption', { class: 'muted' }, `${rows.length - LISTED_ROWS} older rows not listed`)
      : null;
  const head = el(
    'thead',
    {},
    el(
      'tr',
      {},
      ...['commit', 'run', 'suite', 'benchmark', 'value', 'change', 'why'].map((label) => el('th', {}, label)),
    ),
  );
  const empty = el(
    'tr',
    {},
    el('td', { colspan: 7, class: 'empty' }, pending ? 'Finding change points…' : 'No change points in this view.'),
  );
  $('#listed').replaceChildren(...[more, head, el('tbody', {}, ...(body.length ? body : [empty]))].filter(Boolean));
}

let listedTimer = null;
function receiveChangePoints(results) {
  for (const [key, changePoints] of results) page.changePoints.set(key, changePoints);
  for (const drawn of page.drawn.values()) addChangePoints(drawn);
  // The table follows in batches, not once per message.
  clearTimeout(listedTimer);
  listedTimer = setTimeout(() => page.state.view === 'trend' && renderListed(), 150);
}

// ---- tier curve and variants views (perfgate's own names only)
function renderTiers() {
  const curves = tierCurves(page.data, selectedCommit(), page.state);
  const rated = rateCurves(page.data, selectedCommit(), page.state);
  const holder = $('#tier-charts');
  holder.replaceChildren(...(curves.length || rated.length ? [] : [nothingMatches()]));
  for (const curve of curves) {
    const { card, canvas } = chartCard(`${curve.scenario} · tier curve`);
    const knees = curve.variants.map((variant) =>
      el(
        'li',
        {},
        el('strong', {}, variant.variant),
        ': ',
        variant.knee
          ? `★ knee at ${loadTag(closedLoad(variant.knee.tier))} (${variant.knee.reason})`
          : `no knee up to ${loadTag(closedLoad(variant.points.at(-1).tier))}`,
      ),
    );
    card.append(el('ul', { class: 'knees' }, ...knees));
    holder.append(card);
    draw(canvas, tierChartConfig(curve, { colours: page.colours, theme: theme() }));
  }
  for (const curve of rated) {
    const { card, canvas } = chartCard(`${curve.scenario} · latency against offered rate`);
    holder.append(card);
    draw(canvas, rateChartConfig(curve, { colours: page.colours, theme: theme() }));
  }
}

function renderVariants() {
  const { columns, rows, machines } = variantTable(page.data, selectedCommit(), page.state, page.choices);
  const metric = chosenMetrics(page.state, page.choices).find((candidate) =>
    columns.some((column) => column.key === candidate),
  );
  const unit = columns.find((column) => column.key === metric)?.unit ?? '';
  const card = $('#variant-bars').closest('figure');
  card.hidden = rows.length === 0 || !metric;
  $('#bars-title').textContent = `${metric} by variant`;
  if (!card.hidden)
    draw(
      $('#variant-bars'),
      barChartConfig(barSeries(rows, metric), { metric, unit, colours: page.colours, theme: theme() }),
    );
  renderVariantTable(columns, sortRows(rows, page.state.sort));
  $('#machines').textContent = machines.length ? `Measured on ${machines.join('; ')}.` : '';
}

function renderVariantTable(columns, rows) {
  const sortedBy = page.state.sort?.replace(/^-/, '');
  const direction = page.state.sort?.startsWith('-') ? 'descending' : 'ascending';
  const header = columns.map((column) =>
    el(
      'th',
      { 'aria-sort': column.key === sortedBy ? direction : null, class: column.numeric ? 'number' : null },
      el(
        'button',
        { type: 'button', 'data-sort': column.key, onclick: () => update({ sort: nextSort(page.state.sort, column) }) },
        column.label,
      ),
    ),
  );
  const cell = (row, column) => {
    // The load generator was the bottleneck: the row's numbers are a lower bound.
    if (column.key === 'variant' && row.clientSaturated)
      return el('td', { title: 'client saturated: numbers are a lower bound' }, `${row.variant} ⚠`);
    if (!column.numeric) return el('td', {}, row[column.key]);
    const value = cellValue(row, column.key);
    return el(
      'td',
      { class: 'number' },
      column.key === 'vs best' ? (value === undefined ? '–' : formatShare(value)) : formatNumber(value),
    );
  };
  const body = rows.map((row) => el('tr', {}, ...columns.map((column) => cell(row, column))));
  $('#variant-table').replaceChildren(
    el('thead', {}, el('tr', {}, ...header)),
    el('tbody', {}, ...(body.length ? body : [el('tr', {}, el('td', { colspan: columns.length }, nothingMatches()))])),
  );
}

const RENDERERS = { trend: renderTrend, tiers: renderTiers, variants: renderVariants };
// Which filters and controls mean something in each view.
const APPLIES = {
  trend: ['suite', 'variant', 'runtime', 'scenario', 'tier', 'metric', 'search', 'threshold'],
  tiers: ['suite', 'variant', 'runtime', 'scenario', 'commit'],
  variants: ['suite', 'variant', 'runtime', 'scenario', 'tier', 'metric', 'commit'],
};

const chosenFor = (key) =>
  key === 'metric' ? chosenMetrics(page.state, page.choices) : (page.state[key] ?? page.choices[key]);

function renderFilters() {
  const { state, choices } = page;
  for (const key of FILTER_KEYS) {
    const chosen = chosenFor(key);
    const chips = choices[key].map((value) =>
      el(
        'button',
        {
          type: 'button',
          class: 'chip',
          'data-value': value,
          'aria-pressed': String(chosen.includes(value)),
          onclick: () => toggleFilter(key, value),
        },
        key === 'tier' ? loadTag(closedLoad(value)) : value,
      ),
    );
    const fieldset = $(`fieldset[data-filter="${key}"]`);
    fieldset.querySelector('.chips').replaceChildren(...chips);
    // A filter with one choice filters nothing.
    fieldset.hidden = choices[key].length < (key === 'metric' ? 1 : 2);
    fieldset.disabled = !APPLIES[state.view].includes(key);
  }
  // A control that means nothing in this view is not shown.
  for (const control of ['commit', 'threshold', 'search'])
    $(`[data-control="${control}"]`).hidden = !APPLIES[state.view].includes(control);
  // Only perfgate's views pick a commit; thousands of options are built only when they are used.
  if (APPLIES[state.view].includes('commit')) fillCommits();
  $('#commit').value = String(selectedCommit());
  $('#marks').checked = state.threshold !== null;
  $('#threshold').value = String(Math.round(100 * (state.threshold ?? DEFAULT_THRESHOLD)));
  $('#threshold').disabled = state.threshold === null;
  if (document.activeElement !== $('#search')) $('#search').value = state.search;
  for (const tab of document.querySelectorAll('.tabs button'))
    tab.setAttribute('aria-current', String(tab.dataset.view === state.view));
  for (const panel of document.querySelectorAll('[data-view-panel]'))
    panel.hidden = panel.dataset.viewPanel !== state.view;
}

function fillCommits() {
  const select = $('#commit');
  if (select.options.length) return;
  select.replaceChildren(
    ...page.data.commits
      .map((commit, index) =>
        el(
          'option',
          { value: String(index) },
          `${commit.short} · ${formatDate(commit.date)} · ${commit.message.split('\n')[0]}`.slice(0, 90),
        ),
      )
      .reverse(),
  );
}

function toggleFilter(key, value) {
  const { choices } = page;
  const current = chosenFor(key);
  const next = current.includes(value) ? current.filter((item) => item !== value) : [...current, value];
  // Everything chosen is the same as no filter, and keeps the shared URL short.
  const everything = key !== 'metric' && choices[key].every((item) => next.includes(item));
  update({ [key]: everything ? null : choices[key].filter((item) => next.includes(item)) });
}

function render() {
  hideTooltip();
  for (const chart of page.charts) chart.destroy();
  page.charts = [];
  page.drawn.clear();
  page.toDraw = [];
  renderFilters();
  RENDERERS[page.state.view]();
}

function update(changes) {
  page.state = { ...page.state, ...changes };
  history.replaceState(null, '', `${location.pathname}${writeState(page.state)}${location.hash}`);
  render();
}

function wireControls() {
  for (const tab of document.querySelectorAll('.tabs button'))
    tab.addEventListener('click', () => update({ view: tab.dataset.view }));
  const commitSelect = $('#commit');
  const { commits } = page.data;
  commitSelect.addEventListener('change', () => {
    const index = Number(commitSelect.value);
    update({ commit: index === commits.length - 1 ? null : commits[index].short });
  });
  $('#marks').addEventListener('change', (event) =>
    update({ threshold: event.target.checked ? DEFAULT_THRESHOLD : null }),
  );
  $('#threshold').addEventListener('change', (event) => {
    const value = Number(event.target.value) / 100;
    if (Number.isFinite(value) && value > 1) update({ threshold: value });
  });
  let typing = null;
  $('#search').addEventListener('input', (event) => {
    clearTimeout(typing);
    typing = setTimeout(() => update({ search: event.target.value.trim() }), SEARCH_DELAY_MS);
  });
  $('#reset').addEventListener('click', () =>
    update({ ...Object.fromEntries(FILTER_KEYS.map((key) => [key, null])), search: '' }),
  );
  $('#download').addEventListener('click', () => page.worker.postMessage({ type: 'download' }));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', render);
  window.addEventListener('scroll', hideTooltip, { passive: true });
}

function saveDownload(blob) {
  const link = el('a', { href: URL.createObjectURL(blob), download: 'benchmark_data.json' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

function describeSource(data, paths) {
  // A local history has no repository: its chart groups are named after the project ("<name>
  // throughput", "<name> latency"), or a sole suite is the project (perfgate's built-in
  // suites are not: its default one keeps perfgate's name).
  const names = data.suites.map((suite) => suite.name);
  const soleSuite = names.length === 1 && names[0] !== 'default' ? names[0] : null;
  const title = repoTitle(data.repoUrl) ?? projectOfSuites(names) ?? soleSuite;
  document.title = `${title ?? 'perfgate'} · benchmarks`;
  $('#title').replaceChildren(title ?? 'perfgate', el('span', {}, ' benchmarks'));
  const last = data.lastUpdate ? ` · updated ${formatDate(data.lastUpdate)} UTC` : '';
  const repo = data.repoUrl ? el('a', { href: data.repoUrl, rel: 'noopener' }, data.repoUrl) : 'local history';
  $('#source').replaceChildren(
    repo,
    ` · ${data.commits.length} commit${data.commits.length === 1 ? '' : 's'}${last} · from ${paths.join(', ')}`,
  );
}

// The relative trend, explained on the first screen when the data has one: what the lines are,
// and which baseline the newest points were measured against (from their extra text).
function explainBaseline(samples) {
  const note = $('#baseline-note');
  const newest = samples
    .filter((sample) => baseMetricOf(sample.metric) !== null)
    .reduce((latest, sample) => (latest && latest.date >= sample.date ? latest : sample), null);
  note.hidden = newest === null;
  if (!newest) return;
  const baseline = newest.facts.baseline ?? 'a pinned release';
  const origin = newest.facts['relative to'];
  note.replaceChildren(
    el('strong', {}, '“vs baseline” lines: '),
    `each point is that commit measured together with the pinned baseline ${baseline} — both servers at the same time on the same cores, in rounds — as a percentage of the baseline: 100 % is the baseline's level, the band is the 95 % interval. `,
    'Machine noise and a new runner move both sides alike, so these lines stay steady where the absolute ones jump. ',
    origin && origin !== baseline
      ? `Points are chained back to the first baseline ${origin} over the measured re-anchor links (each point's details list them).`
      : 'A new baseline is pinned only by an explicit re-anchor, which measures it against the old one and chains the lines.',
  );
}

function showWarnings(messages) {
  const list = $('#warnings');
  list.replaceChildren(...messages.map((message) => el('li', {}, message)));
  list.hidden = messages.length === 0;
}

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function showProgress({ path, loaded, total, reading }) {
  if (reading) return showStatus(`Reading ${path} (${megabytes(loaded)})…`, 'loading');
  const of = total && total >= loaded ? ` of ${megabytes(total)}` : '';
  return showStatus(`Loading ${path}: ${megabytes(loaded)}${of}…`, 'loading');
}

function open(data, choices, paths) {
  performance.mark('perfgate:data');
  if (data.samples.length === 0)
    return showStatus(`No data yet: ${paths.join(', ')} has no runs (perfgate bench adds one).`, 'empty');
  page.data = data;
  page.series = seriesByKey(data.samples);
  page.choices = choices;
  page.colours = paletteFor(data.samples.map((sample) => (sample.variant ? variantLabel(sample) : sample.name)));
  // perfgate's views need perfgate's names (variant, scenario, connections).
  $('.tabs button[data-view="tiers"]').hidden =
    page.choices.tier.length === 0 && !data.samples.some((sample) => sample.rate !== null);
  $('.tabs button[data-view="variants"]').hidden = page.choices.variant.length === 0;
  if ($(`.tabs button[data-view="${page.state.view}"]`).hidden) page.state.view = 'trend';
  showWarnings(data.skipped ? [`${data.skipped} malformed runs or benches in ${paths.join(', ')} were skipped.`] : []);
  describeSource(data, paths);
  explainBaseline(data.samples);
  wireControls();
  // On a phone the charts come first; the filters fold away behind their summary.
  if (window.matchMedia('(max-width: 600px)').matches) $('#filters').open = false;
  $('#status').hidden = true;
  $('#app').hidden = false;
  $('#download').hidden = false;
  performance.mark('perfgate:open');
  render();
  performance.mark('perfgate:rendered');
  return undefined;
}

function start() {
  performance.mark('perfgate:start');
  if (typeof window.Chart !== 'function')
    return showProblem('Chart.js did not load (vendor/chart.umd.js is missing), so no chart can be drawn.');
  page.state = readState(location.search);
  // index.html started the worker and kept what it said so far.
  const { worker, messages } = window.perfgateData;
  page.worker = worker;
  let paths = [DEFAULT_DATA_PATH];
  const samples = [];
  let tables = null;
  let total = 0;
  const handlers = {
    paths: (message) => {
      ({ paths } = message);
    },
    progress: showProgress,
    tables: (message) => {
      ({ tables, total } = message);
    },
    samples: ({ columns }) => {
      for (const sample of unpackSamples(tables, columns)) samples.push(sample);
      showStatus(
        `Reading ${paths.join(', ')}: ${samples.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} results…`,
        'loading',
      );
    },
    data: ({ data, choices }) => open({ ...data, samples }, choices, paths),
    missing: ({ message }) =>
      showStatus(
        paths.length === 1 && paths[0] === DEFAULT_DATA_PATH
          ? `No data yet: ${message.replace(/\.$/, '')} (perfgate bench writes it locally; on gh-pages the benchmark workflow does, or give ?data=path/to/data.js).`
          : message,
        'empty',
      ),
    problem: ({ message }) => showProblem(message),
    workerFailed: ({ message }) =>
      showProblem(`The data reader (data-worker.js) failed: ${message ?? 'it could not load'}`),
    changePoints: ({ results }) => receiveChangePoints(results),
    changePointsFailed: ({ message }) => {
      page.changePointsFailed = message;
      if (page.state.view === 'trend') renderListed();
    },
    download: ({ blob }) => saveDownload(blob),
  };
  const handle = (message) => handlers[message.type](message);
  worker.addEventListener('message', (event) => handle(event.data));
  worker.addEventListener('error', (event) => handle({ type: 'workerFailed', message: event.message }));
  for (const message of messages.splice(0)) handle(message);
  return undefined;
}

start();
