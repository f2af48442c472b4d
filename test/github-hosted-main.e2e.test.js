// The hosted mode's trend of main, through its steps with simulated GitHub files: a bench on a
// GitHub-hosted runner (RUNNER_ENVIRONMENT=github-hosted, as GitHub sets it) records the runner
// and marks its entries; the template's publish (perfgate publish) appends them to a bare
// repository's gh-pages, where the site reads them into a group labelled "hosted runner"; and
// bench-hosted-main's deploy keeps the pinned baseline that bench-main owns.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { YAML } from 'zx';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { parseExtra } from '../site/shared/extra.js';
import { hostedSuiteName } from '../site/shared/runner.js';
import { suiteNames } from '../site/shared/suite-names.js';
import { bareRepository, branchData, gitCheckout, runPublish } from './fixtures/history/helpers.js';
import { PROJECT_ROOT, readResult, runBench, tempDir } from './helpers/harness.js';
import { git } from './helpers/servers-repo.js';
import { runWorkflowStep, siteRepository } from './helpers/workflow-fixture.js';

const workflow = YAML.parse(readFileSync(join(PROJECT_ROOT, '.github/workflows/bench-hosted-main.yml'), 'utf8'));
const deployStep = workflow.jobs.publish.steps.find((step) => step.name === 'Deploy the trend site next to the data');

test("a bench on a hosted runner is marked from result.json to the site's own group", async (t) => {
  const out = tempDir();
  const run = await runBench(
    [
      '--config',
      'examples/own-server.json',
      '--connections',
      '2',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--out',
      out,
      '--no-history',
    ],
    { env: { RUNNER_ENVIRONMENT: 'github-hosted' } },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readResult(out).machine.runner, 'github-hosted');

  const repo = bareRepository(t);
  const measured = gitCheckout(t, 'a commit of main');
  const published = await runPublish(t, ['--repo', repo, '--results', out, '--commit-dir', measured.dir]);
  assert.equal(published.code, 0, published.stderr);
  const raw = branchData(repo);
  const suite = suiteNames().bigger;
  for (const bench of raw.entries[suite][0].benches) assert.equal(parseExtra(bench.extra).runner, 'github-hosted');
  const data = readBenchmarkData(raw);
  assert.ok(
    data.suites.some((each) => each.name === hostedSuiteName(suite)),
    data.suites.map((each) => each.name).join(', '),
  );
  assert.ok(!data.suites.some((each) => each.name === suite));
});

// The repository on "GitHub" (a bare one on disk) with a gh-pages branch, and the publish job's checkout.
function repository(root, pages) {
  const { checkout, remote, sha } = siteRepository(root);
  const branch = join(root, 'gh-pages');
  mkdirSync(join(branch, 'dev/bench'), { recursive: true });
  for (const [file, content] of Object.entries(pages)) writeFileSync(join(branch, file), content);
  git(branch, 'init', '-q', '-b', 'gh-pages');
  git(branch, 'add', '.');
  git(branch, 'commit', '-qm', 'pages');
  git(branch, 'push', '-q', remote, 'gh-pages:gh-pages');
  return { checkout, remote, sha };
}

async function deploy(pages) {
  const root = tempDir();
  const { checkout, remote, sha } = repository(root, pages);
  mkdirSync(join(root, 'merged'));
  writeFileSync(join(root, 'merged/baselines.json'), '{"hosted":true}\n');
  const result = await runWorkflowStep(deployStep, checkout, {
    GH_TOKEN: 'token',
    PAGES: join(root, 'pages'),
    MERGED: join(root, 'merged'),
    GITHUB_SERVER_URL: `file://${root}`,
    GITHUB_REPOSITORY: 'owner/pages',
    GITHUB_SHA: sha,
  });
  assert.equal(result.code, 0, result.stderr);
  const show = (file) => git(root, '--git-dir', remote, 'show', `gh-pages:${file}`);
  return { show };
}

test("bench-hosted-main's deploy puts the site beside the data and keeps the baseline bench-main pinned", async () => {
  const pinned = await deploy({
    'dev/bench/data.js': 'window.BENCHMARK_DATA = {}',
    'dev/bench/baselines.json': '{"pinned":true}\n',
  });
  assert.equal(pinned.show('index.html'), '<!doctype html>');
  assert.equal(pinned.show('dev/bench/baselines.json'), '{"pinned":true}');
  // On a first run, with no pin yet, the trend's first pin is kept.
  const first = await deploy({ 'dev/bench/data.js': 'window.BENCHMARK_DATA = {}' });
  assert.equal(first.show('dev/bench/baselines.json'), '{"hosted":true}');
});
