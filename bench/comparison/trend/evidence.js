// The relative trend's evidence (scripts/measure-trend.mjs): a synthetic main branch made on this
// machine. A test repository of perfgate's servers gets one commit at a time; commits at known
// places make every request slower by a known amount (servers/contract/contract.js's injected division
// loop, PERFGATE_INJECT_LOOPS, made the default of that commit's code), and from a chosen commit
// on a CPU hog on the server cores stands in for a change of runner hardware. Each commit is
// measured the way main is: an absolute `bench` run (bench/measurement/run-suite.js, sequential) and a relative
// trend step (run-trend.js, a duet against the release tag of the first commit). Then change-
// point detection (site/shared/change-points.js) runs on both kinds of line, and the relative
// trend's per-point interval is set against the absolute line's run-to-run spread.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopsForSlowdown, measureLoopSeconds } from '../calibration/trials.js';
import { createWorkRoot, loadSideVariants, prepareGitSide } from '../sides.js';
import { findChangePoints } from '../../history/detect/find.js';
import { appendRun, commitFromGit, emptyBenchmarkData, serializeBenchmarkData } from '../../history/index.js';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { metricByName } from '../../results/metrics.js';
import { measurementPinning } from '../../measurement/context.js';
import { pinnedCommand } from '../../measurement/pinning.js';
import { registerCleanup, spawnGroup, stopGroup } from '../../measurement/process/children.js';
import { SUITE_NAMES, TOOLS, TREND_SUITES, toBenchmarkAction } from '../../results/benchmark-action.js';
import { runSuite } from '../../measurement/run-suite.js';
import { mean, standardDeviation } from '../../stats/index.js';
import { parseRange, relativeName, trendBenches } from './ratios.js';
import { runTrend } from './run-trend.js';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'perfgate',
  GIT_AUTHOR_EMAIL: 'perfgate@localhost',
  GIT_COMMITTER_NAME: 'perfgate',
  GIT_COMMITTER_EMAIL: 'perfgate@localhost',
};
const INJECTION = 'injectedLoops: Number(env.PERFGATE_INJECT_LOOPS ?? 0)';
// Bounded even if every cleanup failed: the hog ends itself after two hours.
const HOG = 'const end = Date.now() + 7_200_000; while (Date.now() < end);';

// A repository of perfgate's servers at `perfgateRoot`, its first commit tagged v0.0.0 (the baseline).
function testRepository(perfgateRoot) {
  const repo = mkdtempSync(join(tmpdir(), 'perfgate-trend-evidence-'));
  cpSync(join(perfgateRoot, 'servers'), join(repo, 'servers'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(perfgateRoot, file), join(repo, file));
  const git = (...args) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV } });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'baseline');
  git('tag', 'v0.0.0');
  return { repo, git };
}

// Commit `index`: the request's injected loop count becomes `loops` when it changes, else a note.
function commit({ repo, git }, index, loops) {
  const contract = join(repo, 'servers/contract/contract.js');
  const text = readFileSync(contract, 'utf8');
  const current = /injectedLoops: Number\(env\.PERFGATE_INJECT_LOOPS \?\? (\d+)\)/.exec(text);
  if (!current)
    throw new Error(
      `servers/contract/contract.js no longer has "${INJECTION}": update bench/comparison/trend/evidence.js`,
    );
  if (Number(current[1]) !== loops) {
    writeFileSync(contract, text.replace(current[0], INJECTION.replace('?? 0', `?? ${loops}`)));
  } else {
    appendFileSync(join(repo, 'CHANGES.txt'), `change ${index}\n`);
  }
  git('add', '.');
  git('commit', '-qm', `commit ${index}${Number(current[1]) !== loops ? ` (${loops} loops per request)` : ''}`);
}

// The absolute run of HEAD: its own servers, measured sequentially as `bench` does.
async function benchHead({ repo, perfgateRoot, config, outDir }) {
  const work = createWorkRoot();
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const side = prepareGitSide({ repo, sha, ref: 'HEAD', label: 'bench', work, projectRoot: perfgateRoot });
    const variants = Object.values(await loadSideVariants(side, config.variants, config.commands));
    return await runSuite({ config, variants, outDir });
  } finally {
    work.remove();
  }
}

// A CPU-bound process on the server cores of `plan`: the measurement context's plan for the run's
// config (measurementPinning), so that the hog is where the servers run whatever the load workers.
export const hogCommand = (plan) => pinnedCommand(plan, [process.execPath, '-e', HOG]);

// The hog, standing in for other hardware from now on.
function startHog(config) {
  const hog = spawnGroup(hogCommand(measurementPinning(config)));
  const unregister = registerCleanup(() => hog.child.kill('SIGKILL'));
  return async () => {
    unregister();
    await stopGroup(hog);
  };
}

/**
 * @param {{perfgateRoot: string, config: object, settings: object, commits: number,
 *   steps: {at: number, slowdown: number}[], hogFrom: number|null, outDir: string, log: Function}} plan
 *   steps: slowdowns of req/s (0.03 = 3 %) at commits, each on top of the previous level
 */
export async function measureSyntheticHistory({
  perfgateRoot,
  config,
  settings,
  commits,
  steps,
  hogFrom,
  outDir,
  log,
}) {
  const repository = testRepository(perfgateRoot);
  const { repo } = repository;
  const baselinesFile = join(outDir, 'baselines.json');
  let data = emptyBenchmarkData();
  let stopHog = null;
  try {
    log('sizing the injected loop on the baseline');
    const first = await benchHead({ repo, perfgateRoot, config, outDir: join(outDir, 'commit-0') });
    const cpu = metricByName('CPU µs/request');
    const cpuMicrosPerRequest = cpu.fromSummary(first.benchmarks.find((each) => each.status === 'ok').summary);
    const loopSeconds = measureLoopSeconds();
    // Cumulative: the second step is a slowdown on top of the first.
    let factor = 1;
    const loopsAt = new Map(
      steps.map(({ at, slowdown }) => {
        factor *= 1 / (1 - slowdown);
        return [at, loopsForSlowdown({ cpuMicrosPerRequest, loopSeconds, slowdown: 1 - 1 / factor })];
      }),
    );
    let loops = 0;
    for (let index = 1; index <= commits; index++) {
      loops = loopsAt.get(index) ?? loops;
      commit(repository, index, loops);
      if (hogFrom !== null && index === hogFrom) {
        log(`commit ${index}: the CPU hog starts (a change of "hardware")`);
        stopHog = startHog(config);
      }
      log(`commit ${index}/${commits}: ${loops} loops per request`);
      const dir = join(outDir, `commit-${index}`);
      const absolute = toBenchmarkAction(await benchHead({ repo, perfgateRoot, config, outDir: dir }));
      const run = await runTrend({ repo, projectRoot: perfgateRoot, config, settings, baselinesFile, outDir: dir });
      const relative = trendBenches(run.ratios, run.state);
      const date = Date.now();
      ({ data } = appendRun(data, {
        commit: commitFromGit(repo, { date, repoUrl: '' }),
        date,
        suites: [
          { suite: SUITE_NAMES.bigger, tool: TOOLS.bigger, benches: absolute.bigger },
          { suite: SUITE_NAMES.smaller, tool: TOOLS.smaller, benches: absolute.smaller },
          { suite: TREND_SUITES.bigger, tool: TOOLS.bigger, benches: relative.bigger },
          { suite: TREND_SUITES.smaller, tool: TOOLS.smaller, benches: relative.smaller },
        ],
      }));
      writeFileAtomicSync(join(outDir, 'data.js'), serializeBenchmarkData(data));
    }
    return { data, loopsAt: Object.fromEntries(loopsAt), cpuMicrosPerRequest, loopSeconds };
  } finally {
    await stopHog?.();
    rmSync(repo, { recursive: true, force: true });
  }
}

// Pooled within-stretch coefficient of variation: the run-to-run spread where the truth is flat.
function pooledSpread(values, breaks) {
  const edges = [0, ...breaks.filter((at) => at > 0 && at < values.length), values.length].sort((a, b) => a - b);
  const stretches = edges
    .slice(1)
    .map((end, index) => values.slice(edges[index], end))
    .filter((part) => part.length >= 2);
  const squares = stretches.reduce(
    (sum, part) => sum + (standardDeviation(part) / mean(part)) ** 2 * (part.length - 1),
    0,
  );
  const freedom = stretches.reduce((sum, part) => sum + part.length - 1, 0);
  return Math.sqrt(squares / freedom);
}

/**
 * Which of the known steps each line's detection finds (within one commit) and how many points
 * it reports elsewhere; the relative lines' median 95 % interval width against the absolute
 * lines' 95 % run-to-run range (2 x 1.96 x the pooled within-stretch cv), both in % of the value.
 * @param {object} data the history; @param {{steps: number[], hogFrom: number|null}} truth commit numbers (1-based)
 */
export function analyseHistory(data, { id, steps, hogFrom }) {
  const found = findChangePoints(data);
  // The history's first run is commit 1: a step at commit c is the point at index c - 1.
  const expected = steps.map((at) => at - 1);
  const breaks = [...expected, ...(hogFrom === null ? [] : [hogFrom - 1])];
  const line = (suite, name, relative) => {
    const points = found.filter((point) => point.suite === suite && point.bench === name);
    const near = (index) => points.find((point) => Math.abs(point.index - index) <= 1);
    const values = data.entries[suite].map((run) => run.benches.find((bench) => bench.name === name)?.value);
    const widths = relative
      ? data.entries[suite]
          .map((run) => run.benches.find((bench) => bench.name === name))
          .map((bench) => parseRange(bench.range))
          .map(([low, high], index) => (high - low) / values[index])
      : null;
    return {
      line: name,
      relative,
      steps: expected.map((index) =>
        near(index) ? `${index + 1}: ${(100 * near(index).change).toFixed(1)} %` : `${index + 1}: missed`,
      ),
      falsePoints: points
        .filter((point) => !expected.some((index) => Math.abs(point.index - index) <= 1))
        .map((point) => point.index + 1),
      spread: relative ? null : 2 * 1.96 * pooledSpread(values, breaks),
      width: relative ? [...widths].sort((a, b) => a - b)[Math.floor(widths.length / 2)] : null,
    };
  };
  return ['CPU µs/request', 'req/s'].flatMap((metric) => {
    const suite = metricByName(metric).direction === 'bigger' ? 'bigger' : 'smaller';
    return [
      line(SUITE_NAMES[suite], `${id} - ${metric}`, false),
      line(TREND_SUITES[suite], relativeName(id, metric), true),
    ];
  });
}

export function evidenceMarkdown(rows, { commits, steps, hogFrom, loopsAt, conditions }) {
  const pct = (fraction) => `${(100 * fraction).toFixed(2)} %`;
  const byMetric = new Map();
  for (const row of rows)
    byMetric.set(row.line.replace(/ vs baseline$/, ''), [
      ...(byMetric.get(row.line.replace(/ vs baseline$/, '')) ?? []),
      row,
    ]);
  return [
    `Synthetic main: ${commits} commits; slowdowns ${steps.map(({ at, slowdown }) => `${pct(slowdown)} at commit ${at}`).join(', ') || 'none'} (injected loops ${JSON.stringify(loopsAt)})${hogFrom === null ? '' : `; a CPU hog on the server cores from commit ${hogFrom} on (a change of "hardware")`}.`,
    '',
    '| line | steps found (commit: change) | false points (commits) |',
    '| --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.line} | ${row.steps.join('; ')} | ${row.falsePoints.length}${row.falsePoints.length ? ` (${row.falsePoints.join(', ')})` : ''} |`,
    ),
    '',
    '| metric | absolute: 95 % run-to-run range | relative: median 95 % interval | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...[...byMetric.entries()].map(
      ([name, [absolute, relative]]) =>
        `| ${name} | ${pct(absolute.spread)} | ${pct(relative.width)} | ${(absolute.spread / relative.width).toFixed(2)} |`,
    ),
    '',
    conditions,
    '',
  ].join('\n');
}
