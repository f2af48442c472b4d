// Turns `window.BENCHMARK_DATA` (github-action-benchmark's gh-pages format, which perfgate's
// local history also uses) into commits, suites and a flat list of samples.
// Structural damage (not an object, no `entries`) throws MalformedDataError with a message
// for the page; a damaged entry or bench is skipped and counted instead, so one bad run
// does not hide years of history. Every run is kept: a commit measured twice gives two
// points at that commit, as on the action's own page.
import { parseExtra } from './extra.js';
import { describeBench } from './bench-name.js';
import { hostedSuiteName, isHostedRun } from './runner.js';

export class MalformedDataError extends Error {}

// Which way is better, exactly as github-action-benchmark decides it (biggerIsBetter(tool) in
// its src/write.ts), for the tools it knows; npm run detect reads it from here too.
const BIGGER_IS_BETTER = {
  cargo: false,
  go: false,
  benchmarkjs: true,
  benchmarkluau: false,
  pytest: true,
  googlecpp: false,
  catch2: false,
  julia: false,
  jmh: false,
  benchmarkdotnet: false,
  customBiggerIsBetter: true,
  customSmallerIsBetter: false,
};
// true or false for a tool the action knows, null for another (its changes have no direction).
export const toolBiggerIsBetter = (tool) => (Object.hasOwn(BIGGER_IS_BETTER, tool) ? BIGGER_IS_BETTER[tool] : null);
// The action's page treats every other tool as smaller-is-better.
const biggerIsBetter = (tool) => toolBiggerIsBetter(tool) === true;

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value) => (typeof value === 'string' ? value : '');

// The action stores what the tool printed; some tools (and hand-written custom files) give
// numbers as strings, which its page plots. "12.5" counts, "fast" and "" do not.
export function numericValue(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

// The action's go extractor also writes a bench per benchmark whose unit is the whole rest of
// Go's line ("ns/op\t  4.14 MB/s\t  344 B/op\t  15 allocs/op"), numbers included: its unit is
// the first one, or every run would make a metric of its own.
const unitOf = (unit) => text(unit).split('\t')[0].trim();

const person = (who) =>
  isObject(who) ? { name: text(who.name), username: text(who.username) } : { name: '', username: '' };

function commitOf(entry, repoUrl) {
  const commit = isObject(entry.commit) ? entry.commit : {};
  const id = typeof commit.id === 'string' && commit.id ? commit.id : `run-${entry.date}`;
  return {
    id,
    short: /^[0-9a-f]{40}$/i.test(id) ? id.slice(0, 7) : id,
    message: text(commit.message).trim(),
    author: person(commit.author),
    committer: person(commit.committer),
    timestamp: typeof commit.timestamp === 'string' ? commit.timestamp : null,
    url: typeof commit.url === 'string' ? commit.url : repoUrl && commit.id ? `${repoUrl}/commit/${commit.id}` : null,
    date: entry.date,
  };
}

const isUsableEntry = (entry) => isObject(entry) && Number.isFinite(entry.date) && Array.isArray(entry.benches);

// A name recurs in every run and perfgate's metrics of one benchmark share one extra text:
// reading each once keeps histories of thousands of runs quick to open.
function memoize(read) {
  const seen = new Map();
  return (key, ...rest) => {
    if (!seen.has(key)) seen.set(key, read(key, ...rest));
    return seen.get(key);
  };
}

// sources: [{ label, raw }]; with several sources (?data=a&data=b) each suite is named
// "<label> · <suite>" so the same suite of two branches stays apart.
export function readSources(sources) {
  const runs = [];
  let skipped = 0;
  let repoUrl = null;
  let lastUpdate = null;
  const suiteOrder = [];
  const factsOf = memoize(parseExtra);
  // A run on a GitHub-hosted runner goes to a chart group of its own (./runner.js), so that its
  // lines are never joined with a steady machine's.
  const hosted = (entry) => isHostedRun(entry.benches, factsOf);
  for (const { label, raw } of sources) {
    const where = label ?? 'data.js';
    if (raw === undefined) throw new MalformedDataError(`${where} did not set window.BENCHMARK_DATA`);
    if (!isObject(raw)) throw new MalformedDataError(`${where}: window.BENCHMARK_DATA is not an object`);
    if (!isObject(raw.entries)) throw new MalformedDataError(`${where}: window.BENCHMARK_DATA has no "entries" object`);
    const repo = typeof raw.repoUrl === 'string' && raw.repoUrl ? raw.repoUrl.replace(/\/$/, '') : null;
    repoUrl ??= repo;
    if (Number.isFinite(raw.lastUpdate)) lastUpdate = Math.max(lastUpdate ?? 0, raw.lastUpdate);
    for (const [name, entries] of Object.entries(raw.entries)) {
      if (!Array.isArray(entries)) throw new MalformedDataError(`${where}: entries["${name}"] is not a list of runs`);
      const suite = sources.length > 1 ? `${label} · ${name}` : name;
      suiteOrder.push(...new Set([suite, hostedSuiteName(suite)]));
      for (const entry of entries) {
        if (!isUsableEntry(entry)) skipped += 1;
        else runs.push({ suite: hosted(entry) ? hostedSuiteName(suite) : suite, entry, commit: commitOf(entry, repo) });
      }
    }
  }
  // Time order; a commit keeps the place of its first run.
  runs.sort((a, b) => a.entry.date - b.entry.date);
  const commitIndex = new Map();
  const commits = [];
  const suites = new Map();
  for (const run of runs) {
    if (!commitIndex.has(run.commit.id)) {
      commitIndex.set(run.commit.id, commits.length);
      commits.push(run.commit);
    }
    run.commitIndex = commitIndex.get(run.commit.id);
    // Each suite has its own axis: one slot per commit it measured, in time order.
    if (!suites.has(run.suite)) suites.set(run.suite, { name: run.suite, slots: [], slotOf: new Map() });
    const suite = suites.get(run.suite);
    if (!suite.slotOf.has(run.commitIndex)) {
      suite.slotOf.set(run.commitIndex, suite.slots.length);
      suite.slots.push(run.commitIndex);
    }
    run.slot = suite.slotOf.get(run.commitIndex);
  }

  const samples = [];
  const describe = memoize((_key, name, unit, facts) => describeBench(name, unit, facts));
  for (const { suite, entry, commitIndex: commit, slot } of runs) {
    for (const bench of entry.benches) {
      const value = isObject(bench) && typeof bench.name === 'string' ? numericValue(bench.value) : null;
      if (value === null) {
        skipped += 1;
        continue;
      }
      const facts = factsOf(bench.extra);
      const unit = unitOf(bench.unit);
      samples.push({
        commit,
        slot,
        date: entry.date,
        key: `${suite}\u0000${bench.name}`,
        suite,
        name: bench.name,
        value,
        unit,
        range: text(bench.range),
        extra: text(bench.extra),
        biggerIsBetter: biggerIsBetter(entry.tool),
        facts,
        ...describe(`${bench.name}\u0000${unit}\u0000${bench.extra}`, bench.name, unit, facts),
      });
    }
  }
  return {
    repoUrl,
    lastUpdate,
    commits,
    // Suites in the order of the file, as the action's page shows them.
    suites: suiteOrder.filter((name) => suites.has(name)).map((name) => ({ name, slots: suites.get(name).slots })),
    samples,
    skipped,
  };
}

export const readBenchmarkData = (raw) => readSources([{ label: null, raw }]);
