// A run on a GitHub-hosted runner is marked from the machine it measured on to the site: its
// result records the runner, its github-action-benchmark entries say so, and the site reads its
// runs (and npm run detect its series) into a chart group of their own, never into a steady
// machine's lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { seriesOf } from '../bench/history/detect/series.js';
import { toBenchmarkAction } from '../bench/results/benchmark-action.js';
import { resultProblems } from '../bench/results/schema.js';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { parseExtra } from '../site/shared/extra.js';
import { hostedSuiteName, runnerOf } from '../site/shared/runner.js';
import { projectOfSuites, suiteNames } from '../site/shared/suite-names.js';

const result = JSON.parse(readFileSync(new URL('./fixtures/load-point/result.json', import.meta.url), 'utf8'));
const onRunner = (runner) => ({ ...result, machine: { ...result.machine, runner } });

test("the runner is read from GitHub's RUNNER_ENVIRONMENT, and nothing outside Actions", () => {
  assert.equal(runnerOf({ RUNNER_ENVIRONMENT: 'github-hosted' }), 'github-hosted');
  assert.equal(runnerOf({ RUNNER_ENVIRONMENT: 'self-hosted' }), 'self-hosted');
  assert.equal(runnerOf({}), null);
  assert.equal(runnerOf({ RUNNER_ENVIRONMENT: 'laptop' }), null);
});

test("result.json's schema takes the runner, and refuses a runner it does not know", () => {
  assert.deepEqual(resultProblems(onRunner('github-hosted')), []);
  assert.deepEqual(resultProblems(onRunner(null)), []);
  assert.match(resultProblems(onRunner('laptop')).join('\n'), /\/machine\/runner/);
});

test("a hosted run's entries say so in their facts; a self-hosted or local run's do not", () => {
  const hosted = Object.values(toBenchmarkAction(onRunner('github-hosted'))).flat();
  assert.ok(hosted.length > 0);
  for (const entry of hosted) assert.equal(parseExtra(entry.extra).runner, 'github-hosted');
  for (const runner of ['self-hosted', null])
    for (const entry of Object.values(toBenchmarkAction(onRunner(runner))).flat())
      assert.ok(!/^runner:/m.test(entry.extra), entry.name);
});

test("the site reads hosted runs into a chart group of their own, labelled, beside the steady machine's", () => {
  const suite = suiteNames('app').bigger;
  const entry = (sha, date, runner) => ({
    commit: { id: sha.repeat(40), message: sha, timestamp: new Date(date).toISOString() },
    date,
    tool: 'customBiggerIsBetter',
    benches: toBenchmarkAction(onRunner(runner)).bigger,
  });
  const data = readBenchmarkData({
    entries: { [suite]: [entry('a', 1000, 'self-hosted'), entry('b', 2000, 'github-hosted'), entry('c', 3000, null)] },
  });
  assert.deepEqual(
    data.suites.map((each) => [each.name, each.slots]),
    [
      [suite, [0, 2]],
      [`${suite} · hosted runner`, [1]],
    ],
  );
  const [name] = toBenchmarkAction(result).bigger.map((each) => each.name);
  const keysOf = (commit) =>
    data.samples.filter((each) => each.commit === commit && each.name === name).map((each) => each.key);
  assert.deepEqual(keysOf(0), keysOf(2));
  assert.notDeepEqual(keysOf(1), keysOf(0));
  // The site's title still reads the project back from a hosted group.
  assert.equal(projectOfSuites(data.suites.map((each) => each.name)), 'app');
});

test("npm run detect reads the same groups: a hosted run never extends a steady machine's series", () => {
  const suite = suiteNames().bigger;
  const run = (sha, date, runner) => ({
    commit: { id: sha.repeat(40) },
    date,
    tool: 'customBiggerIsBetter',
    benches: toBenchmarkAction(onRunner(runner)).bigger,
  });
  const data = { entries: { [suite]: [run('a', 1, null), run('b', 2, 'github-hosted'), run('c', 3, null)] } };
  const [name] = toBenchmarkAction(result).bigger.map((each) => each.name);
  const lines = seriesOf(data).filter((line) => line.bench === name);
  assert.deepEqual(
    lines.map((line) => [line.suite, line.points.map((point) => point.date)]),
    [
      [suite, [1, 3]],
      [hostedSuiteName(suite), [2]],
    ],
  );
});
