// The hardening rules of .github/workflows (docs/github-actions.md) and the names the workflows
// share with the code, checked on the parsed YAML, with or without the linters installed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { YAML } from 'zx';
import { ARTIFACT_NAME } from '../bench/github/artifact.js';
import { SUITES } from '../bench/config/suites.js';
import { SUITE_NAMES, TOOLS } from '../bench/results/benchmark-action.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const DIR = join(PROJECT_ROOT, '.github/workflows');
const files = readdirSync(DIR).filter((name) => name.endsWith('.yml'));
const text = Object.fromEntries(files.map((name) => [name, readFileSync(join(DIR, name), 'utf8')]));
const workflows = Object.fromEntries(files.map((name) => [name, YAML.parse(text[name])]));
const jobsOf = (name) => Object.entries(workflows[name].jobs);
const allJobs = () => files.flatMap((name) => jobsOf(name).map(([id, job]) => [`${name}:${id}`, job, job.permissions ?? workflows[name].permissions]));
const allSteps = () => allJobs().flatMap(([where, job]) => job.steps.map((step) => [where, step]));
const usesOf = (prefix) => allSteps().filter(([, step]) => step.uses?.startsWith(prefix));

describe('hardening', () => {
  test('the five workflows are there', () => {
    assert.deepEqual(files.sort(), ['bench-comment.yml', 'bench-main.yml', 'bench-pr.yml', 'ci.yml', 'upgrade-gate.yml']);
  });

  test('every action is pinned by a full commit SHA with its version in a comment, the same SHA everywhere', () => {
    const pins = {};
    for (const [name, source] of Object.entries(text)) {
      for (const line of source.split('\n').filter((each) => /^\s*(- )?uses:/.test(each))) {
        const match = /uses: ([\w.-]+\/[\w.-]+)@([0-9a-f]{40}) # v\d+\.\d+\.\d+$/.exec(line);
        assert.ok(match, `${name}: "${line.trim()}" is not pinned as owner/repo@<40-hex sha> # vX.Y.Z`);
        pins[match[1]] ??= match[2];
        assert.equal(match[2], pins[match[1]], `${name}: ${match[1]} pinned to another SHA than elsewhere`);
      }
    }
    assert.ok(Object.keys(pins).length >= 5);
  });

  test('every checkout keeps no credentials; every job has a timeout', () => {
    for (const [where, step] of usesOf('actions/checkout@')) assert.equal(step.with?.['persist-credentials'], false, where);
    for (const [where, job] of allJobs()) assert.ok(Number.isInteger(job['timeout-minutes']), `${where} has no timeout-minutes`);
  });

  test('no expression inside a run: script (context goes through env:), no pull_request_target', () => {
    for (const [where, step] of allSteps()) if (step.run) assert.ok(!step.run.includes('${{'), `${where}: "${step.name}" expands an expression in run:`);
    for (const name of files) assert.ok(!('pull_request_target' in workflows[name].on), name);
  });

  test('least privilege: no default permissions, and only the publishing job may write contents', () => {
    for (const name of files) assert.ok(workflows[name].permissions !== undefined, `${name} has no top-level permissions`);
    const writers = allJobs().filter(([, , permissions]) => Object.values(permissions).includes('write'));
    assert.deepEqual(writers.map(([where, , permissions]) => [where, permissions]), [
      ['bench-comment.yml:comment', { actions: 'read', 'pull-requests': 'write' }],
      ['bench-main.yml:publish', { contents: 'write' }],
    ]);
    for (const [where, job] of allJobs().filter(([, each]) => [each['runs-on']].flat().includes('self-hosted'))) {
      assert.deepEqual(job.permissions, { contents: 'read' }, `${where} runs on a self-hosted runner with more than contents: read`);
    }
  });
});

describe('names shared with the code', () => {
  test('bench-main shards exactly the frameworks suite\'s variants', () => {
    assert.deepEqual(workflows['bench-main.yml'].jobs.bench.strategy.matrix.variant, SUITES.frameworks.variants);
    assert.match(workflows['bench-main.yml'].jobs.bench.steps.find((step) => step.run?.includes('npm run bench')).run, /--suite frameworks --variant "\$VARIANT"/);
  });

  test('the trend is published under the suite names and tools of bench/results/benchmark-action.js', () => {
    const published = usesOf('benchmark-action/github-action-benchmark@').map(([, step]) => step.with);
    assert.deepEqual(published.map((inputs) => [inputs.name, inputs.tool, inputs['output-file-path'].split('/').at(-1)]), [
      [SUITE_NAMES.bigger, TOOLS.bigger, 'benchmark-action-bigger.json'],
      [SUITE_NAMES.smaller, TOOLS.smaller, 'benchmark-action-smaller.json'],
    ]);
    for (const inputs of published) {
      assert.deepEqual([inputs['auto-push'], inputs['gh-pages-branch'], inputs['benchmark-data-dir-path'], inputs['comment-on-alert'], inputs['fail-on-alert']],
        [true, 'gh-pages', 'dev/bench', true, true]);
      assert.match(inputs['alert-threshold'], /^\d+%$/);
    }
  });

  test('bench-comment follows the workflows that upload the artifact, and consumes bench-pr\'s label', () => {
    const uploaders = files.filter((name) => usesOf('actions/upload-artifact@').some(([where, step]) => where.startsWith(`${name}:`) && step.with.name === ARTIFACT_NAME));
    assert.deepEqual(uploaders.sort(), ['bench-pr.yml', 'upgrade-gate.yml']);
    const comment = workflows['bench-comment.yml'];
    assert.deepEqual(comment.on.workflow_run.workflows, uploaders.map((name) => workflows[name].name));
    const [[, download]] = usesOf('actions/download-artifact@').filter(([where]) => where.startsWith('bench-comment.yml'));
    assert.equal(download.with.name, ARTIFACT_NAME);
    assert.equal(download.with['run-id'], '${{ github.event.workflow_run.id }}');
    assert.match(download.with.path, /^\$\{\{ runner\.temp \}\}\//);
    assert.equal(workflows['bench-pr.yml'].jobs.compare.if, "github.event.label.name == 'run-bench'");
    assert.match(comment.jobs.comment.steps.at(-1).run, /--consume-label run-bench$/);
    assert.ok(!usesOf('actions/checkout@').some(([where, step]) => where.startsWith('bench-comment.yml') && step.with?.ref), 'bench-comment checks out only the default branch');
  });
});

describe('the trend-site deploy step of bench-main', () => {
  const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
  const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();

  test('puts docs/ at the root of gh-pages beside the data, once', () => {
    const root = tempDir();
    // A checkout with a site, and a remote whose gh-pages already holds the action's data.
    const checkout = join(root, 'checkout');
    mkdirSync(join(checkout, 'docs/lib'), { recursive: true });
    writeFileSync(join(checkout, 'docs/index.html'), '<!doctype html>');
    writeFileSync(join(checkout, 'docs/lib/app.js'), 'export {};');
    git(checkout, 'init', '-q', '-b', 'main');
    git(checkout, 'add', '.');
    git(checkout, 'commit', '-qm', 'site');
    const remote = join(root, 'owner/pages.git');
    git(root, 'init', '-q', '--bare', remote);
    const seed = join(root, 'seed');
    mkdirSync(join(seed, 'dev/bench'), { recursive: true });
    writeFileSync(join(seed, 'dev/bench/data.js'), 'window.BENCHMARK_DATA = {}');
    git(seed, 'init', '-q', '-b', 'gh-pages');
    git(seed, 'add', '.');
    git(seed, 'commit', '-qm', 'data');
    git(seed, 'push', '-q', remote, 'gh-pages');

    const step = workflows['bench-main.yml'].jobs.publish.steps.find((each) => each.name === 'Deploy the trend site next to the data');
    const deploy = (pages) => spawnSync('bash', ['-eo', 'pipefail', '-c', step.run], {
      cwd: checkout,
      encoding: 'utf8',
      env: { ...process.env, GH_TOKEN: 'token', PAGES: join(root, pages), GITHUB_SERVER_URL: `file://${root}`, GITHUB_REPOSITORY: 'owner/pages', GITHUB_SHA: git(checkout, 'rev-parse', 'HEAD') },
    });
    const first = deploy('pages-1');
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(git(root, '--git-dir', remote, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n'),
      ['.nojekyll', 'dev/bench/data.js', 'index.html', 'lib/app.js']);
    assert.match(git(root, '--git-dir', remote, 'log', '-1', '--format=%an %s', 'gh-pages'), /^github-actions\[bot\] trend site from [0-9a-f]{40}$/);
    const again = deploy('pages-2');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /the trend site on gh-pages is up to date/);
    assert.equal(git(root, '--git-dir', remote, 'rev-list', '--count', 'gh-pages'), '2');
  });
});
