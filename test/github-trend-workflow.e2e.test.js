// bench-main's relative trend (npm run trend), run through its workflow steps with simulated
// GitHub files: the bench job's trend step against the baseline pinned on gh-pages, perfgate's
// own baseline (a commit of its main: it has no release tag yet), the merge
// of shards that measured relative lines and re-anchor links, and the deploy step that puts the
// merged baselines file beside data.js on gh-pages.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { YAML } from 'zx';
import { gitOutput } from '../bench/core/git.js';
import { PERFGATE_BASELINE, SUITES } from '../bench/config/suites.js';
import { addAnchor, pinFirst } from '../bench/comparison/trend/anchors.js';
import { configuredBaseline } from '../bench/comparison/trend/run-trend.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { git } from './helpers/servers-repo.js';
import { runWorkflowStep, siteRepository } from './helpers/workflow-fixture.js';

const workflow = YAML.parse(readFileSync(join(PROJECT_ROOT, '.github/workflows/bench-main.yml'), 'utf8'));
const stepOf = (job, name) => {
  const found = workflow.jobs[job].steps.find((step) => step.name === name);
  assert.ok(found, `bench-main's ${job} job has a step "${name}"`);
  return found;
};

const SHA = (digit) => digit.repeat(40);
const bench = (name, unit) => ({ name, value: 100, unit, range: '95% CI 99.00 to 101.00' });

// A shard's results directory as the bench job leaves it: bench's files and the trend's.
function shard(root, variant, { trend = true } = {}) {
  const dir = join(root, 'shards', `shard-${variant}`);
  mkdirSync(dir, { recursive: true });
  const write = (file, content) => writeFileSync(join(dir, file), JSON.stringify(content));
  write('benchmark-action-bigger.json', [bench(`${variant} json c=100 - req/s`, 'req/s')]);
  write('benchmark-action-smaller.json', [bench(`${variant} json c=100 - p99 latency`, 'ms')]);
  if (trend) {
    write('benchmark-action-trend-bigger.json', [bench(`${variant} json c=100 - req/s vs baseline`, '%')]);
    write('benchmark-action-trend-smaller.json', [bench(`${variant} json c=100 - CPU µs/request vs baseline`, '%')]);
    write(
      'baselines.json',
      addAnchor(
        pinFirst({ ref: 'v1.0.0', sha: SHA('a') }),
        { ref: 'v1.1.0', sha: SHA('b') },
        {
          [`${variant} json c=100 - CPU µs/request vs baseline`]: { ratio: 0.98, ci: [0.97, 0.99] },
        },
      ),
    );
  }
  return dir;
}

// The repository on "GitHub" with a gh-pages branch, and its checkout.
const repository = (root) => siteRepository(root, ['main:main', 'main:gh-pages']);

describe("bench-main's relative trend, step by step", () => {
  test('the bench job measures the trend after the benchmark, with the tags, and uploads its files', () => {
    const { steps } = workflow.jobs.bench;
    const names = steps.map((step) => step.name);
    assert.ok(names.indexOf('Relative trend of one variant') > names.indexOf('Benchmark one variant'));
    assert.equal(stepOf('bench', 'Check out').with['fetch-depth'], 0, 'the release tags are fetched');
    const uploaded = stepOf('bench', 'Upload the shard').with.path;
    for (const file of ['benchmark-action-trend-bigger.json', 'benchmark-action-trend-smaller.json', 'baselines.json'])
      assert.ok(uploaded.includes(`perfgate-shard/${file}`), file);
    assert.deepEqual(workflow.jobs.bench.permissions, { contents: 'read' }, 'gh-pages is only read here');
  });

  test("perfgate's own baseline is a commit of its main, named in the frameworks suite", {
    skip:
      gitOutput(['cat-file', '-e', `${PERFGATE_BASELINE}^{commit}`], PROJECT_ROOT) === null
        ? 'a shallow checkout without that commit (bench-main fetches the whole history)'
        : false,
  }, () => {
    assert.deepEqual(SUITES.frameworks.trend.baseline, { commit: PERFGATE_BASELINE });
    const selected = configuredBaseline(PROJECT_ROOT, SUITES.frameworks);
    assert.equal(selected.sha, PERFGATE_BASELINE);
    assert.equal(gitOutput(['merge-base', '--is-ancestor', PERFGATE_BASELINE, 'HEAD'], PROJECT_ROOT), '', 'of main');
  });

  test('the trend step reads the baseline pinned on gh-pages and writes the lines and the summary', async () => {
    const root = tempDir();
    const { checkout, remote } = repository(root);
    // gh-pages pins this very checkout's HEAD: every ratio is 100 % by definition, so the step
    // runs end to end without a duet (a real baseline would measure for minutes).
    const head = gitOutput(['rev-parse', 'HEAD'], PROJECT_ROOT).trim();
    mkdirSync(join(checkout, 'dev/bench'), { recursive: true });
    writeFileSync(
      join(checkout, 'dev/bench/baselines.json'),
      JSON.stringify(pinFirst({ ref: 'the pinned commit', sha: head, how: 'test' })),
    );
    git(checkout, 'add', '.');
    git(checkout, 'commit', '-qm', 'baselines');
    git(checkout, 'push', '-q', remote, 'HEAD:gh-pages');
    const out = join(root, 'shard');
    const summary = join(root, 'summary.md');
    writeFileSync(summary, '');
    const result = await runWorkflowStep(stepOf('bench', 'Relative trend of one variant'), PROJECT_ROOT, {
      VARIANT: 'express',
      OUT: out,
      REANCHOR: '',
      GH_TOKEN: 'token',
      GITHUB_SERVER_URL: `file://${root}`,
      GITHUB_REPOSITORY: 'owner/pages',
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(result.code, 0, result.stderr);
    const written = readFileSync(summary, 'utf8');
    assert.match(written, /### perfgate relative trend: HEAD .* against the baseline the pinned commit/);
    assert.match(written, /HEAD is the baseline the pinned commit itself/);
    const lines = JSON.parse(readFileSync(join(out, 'benchmark-action-trend-bigger.json'), 'utf8'));
    assert.deepEqual(
      lines.map((line) => [line.name, line.value]),
      [
        ['express hello c=100 - req/s vs baseline', 100],
        ['express json c=100 - req/s vs baseline', 100],
      ],
    );
    assert.equal(JSON.parse(readFileSync(join(out, 'baselines.json'), 'utf8')).anchors[0].sha, head);
  });

  test('the merge carries the relative lines and one baselines file; the deploy puts it beside data.js', async () => {
    const root = tempDir();
    const { checkout, remote, sha } = repository(root);
    shard(root, 'express');
    shard(root, 'fastify');
    const outputs = join(root, 'outputs');
    writeFileSync(outputs, '');
    const env = {
      SHARDS: join(root, 'shards'),
      MERGED: join(root, 'merged'),
      PAGES: join(root, 'pages'),
      GH_TOKEN: 'token',
      GITHUB_OUTPUT: outputs,
      GITHUB_SERVER_URL: `file://${root}`,
      GITHUB_REPOSITORY: 'owner/pages',
      GITHUB_SHA: sha,
    };
    const merged = await runWorkflowStep(stepOf('publish', 'Merge the shards'), PROJECT_ROOT, env);
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(readFileSync(outputs, 'utf8'), 'trend=true\nbaselines=true\n');
    const read = (file) => JSON.parse(readFileSync(join(root, 'merged', file), 'utf8'));
    assert.deepEqual(
      read('benchmark-action-trend-smaller.json').map((each) => each.name),
      ['express json c=100 - CPU µs/request vs baseline', 'fastify json c=100 - CPU µs/request vs baseline'],
    );
    assert.equal(Object.keys(read('baselines.json').anchors[1].link.ratios).length, 2, "both shards' links");

    // The action's steps publish the relative suites only when some shard measured them.
    for (const [name, suite, file] of [
      [
        'Publish the relative trend, req/s ("perfgate throughput vs baseline")',
        'perfgate throughput vs baseline',
        'benchmark-action-trend-bigger.json',
      ],
      [
        'Publish the relative trend, latency and CPU ("perfgate latency vs baseline")',
        'perfgate latency vs baseline',
        'benchmark-action-trend-smaller.json',
      ],
    ]) {
      const step = stepOf('publish', name);
      assert.equal(step.if, "${{ !cancelled() && steps.merge.outputs.trend == 'true' }}");
      assert.equal(step.with.name, suite);
      assert.ok(step.with['output-file-path'].endsWith(`/perfgate-merged/${file}`));
    }

    for (const name of ['Check out gh-pages', 'Deploy the trend site next to the data']) {
      const result = await runWorkflowStep(stepOf('publish', name), checkout, env);
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
    }
    assert.deepEqual(
      JSON.parse(git(root, '--git-dir', remote, 'show', 'gh-pages:dev/bench/baselines.json')),
      read('baselines.json'),
    );
  });

  test('shards without a relative trend: no trend inputs, the action steps are skipped', async () => {
    const root = tempDir();
    shard(root, 'express', { trend: false });
    const outputs = join(root, 'outputs');
    writeFileSync(outputs, '');
    const merged = await runWorkflowStep(stepOf('publish', 'Merge the shards'), PROJECT_ROOT, {
      SHARDS: join(root, 'shards'),
      MERGED: join(root, 'merged'),
      GITHUB_OUTPUT: outputs,
    });
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(readFileSync(outputs, 'utf8'), 'trend=false\nbaselines=false\n');
    assert.ok(!existsSync(join(root, 'merged/benchmark-action-trend-bigger.json')));
  });
});
