// Turns `window.BENCHMARK_DATA` (github-action-benchmark's gh-pages format, which perfgate's
// local history also uses) into one commit axis and a flat list of samples.
// Structural damage (not an object, no `entries`) throws MalformedDataError with a message
// for the page; a damaged entry or bench is skipped and counted instead, so one bad run
// does not hide years of history.
import { parseExtra } from './extra.js';
import { describeBench } from './bench-name.js';

export class MalformedDataError extends Error {}

// The action's own rule (its biggerIsBetter()): these tools report "more is better".
const BIGGER_IS_BETTER_TOOLS = new Set(['customBiggerIsBetter', 'benchmarkjs', 'pytest']);
const biggerIsBetter = (tool) => BIGGER_IS_BETTER_TOOLS.has(tool);

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function commitOf(entry, repoUrl) {
  const commit = isObject(entry.commit) ? entry.commit : {};
  const id = typeof commit.id === 'string' && commit.id ? commit.id : `run-${entry.date}`;
  return {
    id,
    short: /^[0-9a-f]{40}$/i.test(id) ? id.slice(0, 7) : id,
    message: typeof commit.message === 'string' ? commit.message.split('\n')[0] : '',
    author: commit.author?.name ?? commit.author?.username ?? '',
    timestamp: typeof commit.timestamp === 'string' ? commit.timestamp : entry.date,
    url: typeof commit.url === 'string' ? commit.url : repoUrl && commit.id ? `${repoUrl}/commit/${commit.id}` : null,
    date: entry.date,
  };
}

const isUsableEntry = (entry) => isObject(entry) && Number.isFinite(entry.date) && Array.isArray(entry.benches);
const isUsableBench = (bench) => isObject(bench) && typeof bench.name === 'string' && Number.isFinite(bench.value);

// The five metrics of a benchmark share one extra text, and a name recurs in every run:
// reading each text once keeps histories of thousands of runs quick to open.
function memoize(read) {
  const seen = new Map();
  return (key, ...rest) => {
    if (!seen.has(key)) seen.set(key, read(key, ...rest));
    return seen.get(key);
  };
}

export function readBenchmarkData(raw) {
  if (raw === undefined) throw new MalformedDataError('data.js did not set window.BENCHMARK_DATA');
  if (!isObject(raw)) throw new MalformedDataError('window.BENCHMARK_DATA is not an object');
  if (!isObject(raw.entries)) throw new MalformedDataError('window.BENCHMARK_DATA has no "entries" object');
  const repoUrl = typeof raw.repoUrl === 'string' ? raw.repoUrl.replace(/\/$/, '') : null;
  let skipped = 0;

  // Runs of every suite, in time order; a commit measured again keeps its first place.
  const runs = [];
  for (const [suite, entries] of Object.entries(raw.entries)) {
    if (!Array.isArray(entries)) throw new MalformedDataError(`entries["${suite}"] is not a list of runs`);
    for (const entry of entries) {
      if (isUsableEntry(entry)) runs.push({ suite, entry, commit: commitOf(entry, repoUrl) });
      else skipped += 1;
    }
  }
  runs.sort((a, b) => a.entry.date - b.entry.date);
  const commitIndex = new Map();
  const commits = [];
  for (const { commit } of runs) {
    if (commitIndex.has(commit.id)) continue;
    commitIndex.set(commit.id, commits.length);
    commits.push(commit);
  }

  // The latest run of a commit wins when a suite measured it twice.
  const samples = new Map();
  const factsOf = memoize(parseExtra);
  const describe = memoize((_key, name, unit, facts) => describeBench(name, unit, facts));
  for (const { suite, entry, commit } of runs) {
    for (const bench of entry.benches) {
      if (!isUsableBench(bench)) {
        skipped += 1;
        continue;
      }
      const facts = factsOf(bench.extra);
      const unit = typeof bench.unit === 'string' ? bench.unit : '';
      const key = `${suite}\u0000${bench.name}`;
      samples.set(`${commit.id}\u0000${key}`, {
        commit: commitIndex.get(commit.id),
        key,
        suite,
        name: bench.name,
        value: bench.value,
        unit,
        range: typeof bench.range === 'string' ? bench.range : '',
        biggerIsBetter: biggerIsBetter(entry.tool),
        facts,
        ...describe(`${bench.name}\u0000${unit}\u0000${bench.extra}`, bench.name, unit, facts),
      });
    }
  }
  return {
    repoUrl,
    lastUpdate: Number.isFinite(raw.lastUpdate) ? raw.lastUpdate : null,
    commits,
    samples: [...samples.values()],
    skipped,
  };
}
