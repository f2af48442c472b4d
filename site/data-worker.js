// Off the page's thread: fetches the data.js files (reporting progress, so a 30 MB history
// shows how far it got instead of freezing the tab), reads them, and then finds the change
// points of every series, those the page shows first. The page only draws.
import { dataPaths, ForeignDataError, sourceLabels } from './shared/sources.js';

// The modules that read the data load while it downloads, not before.
const modules = Promise.all([
  import('./shared/benchmark-data.js'),
  import('./lib/data-script.js'),
  import('./lib/series.js'),
  import('./lib/filters.js'),
  import('./lib/sample-transfer.js'),
]).then((loaded) => Object.assign({}, ...loaded));

const PROGRESS_EVERY_MS = 100;
// Samples go to the page in slices: each slice is unpacked in a task of its own, so the page
// keeps drawing frames (and its progress message) while a big history arrives.
const SAMPLES_PER_MESSAGE = 5000;
const CHANGE_POINT_SLICE_MS = 30;

let raws = null;
let series = null;
const found = new Map();
let queue = [];
let working = false;

class DataProblem extends Error {}

async function fetchText(url, path) {
  let response;
  try {
    response = await fetch(url, { cache: 'no-cache' });
  } catch (error) {
    throw new DataProblem(`${path} could not be fetched (${error.message})`);
  }
  if (response.status === 404) throw new DataProblem(`${path} was not found`, { cause: 'missing' });
  if (!response.ok) throw new DataProblem(`${path} could not be fetched: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length')) || null;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    if (Date.now() - reported > PROGRESS_EVERY_MS) {
      reported = Date.now();
      postMessage({ type: 'progress', path, loaded, total });
    }
  }
  postMessage({ type: 'progress', path, loaded, total, reading: true });
  return new Blob(chunks).text();
}

function readScript(readDataScript, text, path) {
  try {
    return readDataScript(text);
  } catch (error) {
    throw new DataProblem(`${path} is malformed and cannot be read: ${error.name}: ${error.message}`);
  }
}

// page: the page's address; its ?data= says what to read (shared/sources.js).
async function load({ page }) {
  let paths;
  try {
    paths = dataPaths(new URL(page).search, page);
  } catch (error) {
    if (!(error instanceof ForeignDataError)) throw error;
    postMessage({ type: 'problem', message: `${error.message}.` });
    return;
  }
  postMessage({ type: 'paths', paths });
  // All files download at once; each is read as soon as it is complete.
  const texts = paths.map((path) => fetchText(new URL(path, page).href, path));
  for (const text of texts) text.catch(() => {}); // the first failure is reported below, once
  const { readDataScript, readSources, seriesByKey, filterChoices, packSamples, MalformedDataError } = await modules;
  try {
    const labels = sourceLabels(paths);
    raws = [];
    for (const [index, path] of paths.entries())
      raws.push({ label: labels[index], path, raw: readScript(readDataScript, await texts[index], path) });
    const data = readSources(raws);
    series = seriesByKey(data.samples);
    const { samples, ...rest } = data;
    const { tables, slices } = packSamples(samples, SAMPLES_PER_MESSAGE);
    postMessage({ type: 'tables', tables, total: samples.length });
    for (const { columns, transfer } of slices) postMessage({ type: 'samples', columns }, transfer);
    postMessage({ type: 'data', data: rest, choices: filterChoices(data) });
  } catch (error) {
    if (error instanceof MalformedDataError) postMessage({ type: 'problem', message: `${error.message}.` });
    else if (error instanceof DataProblem)
      postMessage({ type: error.cause === 'missing' ? 'missing' : 'problem', message: `${error.message}.` });
    else throw error;
  }
}

// Change points come in slices of a few milliseconds of work, so a newer request (the page
// scrolled, or the filters changed) is picked up between two slices.
let detect = null;
async function work() {
  if (working) return;
  working = true;
  try {
    detect ??= (await import('./shared/change-points.js')).detectChangePoints;
    while (queue.length) {
      const started = Date.now();
      const results = [];
      while (queue.length && Date.now() - started < CHANGE_POINT_SLICE_MS) {
        const key = queue.shift();
        if (found.has(key) || !series.has(key)) continue;
        found.set(key, detect(series.get(key).map((sample) => sample.value)));
        results.push([key, found.get(key)]);
      }
      if (results.length) postMessage({ type: 'changePoints', results });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } catch (error) {
    postMessage({ type: 'changePointsFailed', message: error.message });
    queue = [];
  } finally {
    working = false;
  }
}

function changePoints({ keys }) {
  const known = keys.filter((key) => found.has(key)).map((key) => [key, found.get(key)]);
  if (known.length) postMessage({ type: 'changePoints', results: known });
  queue = keys.filter((key) => !found.has(key));
  work();
}

// The download is the data as the files hold it: one file's object, or { path: object } for several.
function download() {
  const shown = raws.length === 1 ? raws[0].raw : Object.fromEntries(raws.map(({ path, raw }) => [path, raw]));
  postMessage({ type: 'download', blob: new Blob([JSON.stringify(shown, null, 2)], { type: 'application/json' }) });
}

const HANDLERS = { load, changePoints, download };
self.addEventListener('message', (event) => HANDLERS[event.data.type](event.data));
