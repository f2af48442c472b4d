// The upgrade gate learns runtime upgrades: the detector on each file where a project declares its
// Node.js version (and on changes that are not an upgrade), the request job reading those files
// through a fake GitHub API on loopback, and the gate comparing the two runtimes for real, each a
// wrapper of the harness's Node from a registry stand-in (the plumbing, not a measurement).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { comparisonRuns } from '../bench/github/packages.js';
import { changedRuntime, declaredRuntimes, setupNodeVersions } from '../bench/github/runtime-upgrade.js';
import { RUNTIME_KINDS } from '../bench/measurement/runtime/kinds.js';
import { pullRequestStepEnv, startFakeGitHub } from './helpers/fake-github.js';
import { npmEnvFor, runtimeTarball, startFakeRegistry } from './helpers/fake-registry.js';
import { PROJECT_ROOT, tempDir, writeReporterConfig } from './helpers/harness.js';
import { GIT_ENV } from './helpers/servers-repo.js';
import { setupNodeWorkflow } from './helpers/workflow-fixture.js';

const execFileAsync = promisify(execFile);
const workflow = (version) => setupNodeWorkflow({ version });
const manifest = (fields) => JSON.stringify({ name: 'shop', version: '1.0.0', ...fields });

describe('the runtime-upgrade detector', () => {
  const cases = [
    ['.nvmrc', { '.nvmrc': 'v22\n' }, { '.nvmrc': 'v24\n' }, '22', '24'],
    ['.node-version', { '.node-version': '22.11.0\n' }, { '.node-version': '24.1.0\n' }, '22.11.0', '24.1.0'],
    [
      'package.json volta.node',
      { 'package.json': manifest({ volta: { node: '22.11.0' } }) },
      { 'package.json': manifest({ volta: { node: '24.1.0' } }) },
      '22.11.0',
      '24.1.0',
    ],
    [
      'package.json engines.node',
      { 'package.json': manifest({ engines: { node: '>=20' } }) },
      { 'package.json': manifest({ engines: { node: '>=22.12 <25' } }) },
      '20',
      '22.12',
    ],
    [
      '.github/workflows/ci.yml actions/setup-node node-version',
      { '.github/workflows/ci.yml': workflow('22') },
      { '.github/workflows/ci.yml': workflow("'24'") },
      '22',
      '24',
    ],
  ];
  for (const [source, base, head, from, to] of cases)
    test(`a changed ${source} is a runtime upgrade`, () => {
      assert.deepEqual(changedRuntime(base, head), [{ kind: 'runtime', name: 'node', from, to, source }]);
    });

  test('changes that are not a runtime upgrade', () => {
    const files = {
      '.nvmrc': '22\n',
      'package.json': manifest({ engines: { node: '>=22' } }),
      '.github/workflows/ci.yml': workflow('22'),
    };
    // The same versions written otherwise; another field of package.json; a comment.
    const same = {
      '.nvmrc': 'v22 # the LTS\n',
      'package.json': manifest({ engines: { node: '>=22' }, dependencies: { express: '5.1.0' } }),
      '.github/workflows/ci.yml': workflow('"22"').replace('cache: npm', 'cache: yarn'),
    };
    assert.deepEqual(changedRuntime(files, same), []);
    // An alias or an expression is no version to compare; a file only on one side is no change.
    assert.deepEqual(changedRuntime({ '.nvmrc': '22' }, { '.nvmrc': 'lts/*' }), []);
    assert.deepEqual(changedRuntime({}, { '.nvmrc': '24' }), []);
    assert.deepEqual(setupNodeVersions(workflow('${{ matrix.node }}')), []);
    // Another action's node-version is not setup-node's.
    assert.deepEqual(setupNodeVersions(workflow('22').replace('actions/setup-node', 'other/action')), []);
    assert.deepEqual(
      declaredRuntimes(files).map((each) => each.source),
      ['.nvmrc', 'package.json engines.node', '.github/workflows/ci.yml actions/setup-node node-version'],
    );
  });

  test('a runtime upgrade is compared as the same code on the two runtimes', () => {
    const [run] = comparisonRuns(changedRuntime({ '.nvmrc': '22' }, { '.nvmrc': '24' }), '/w', ['--duration', '1']);
    assert.equal(run.slug, 'node-runtime');
    assert.deepEqual(run.args, [
      '--runtime',
      'node@22',
      '--vs-runtime',
      'node@24',
      '--out',
      '/w/node-runtime',
      '--duration',
      '1',
    ]);
  });
});

describe('scripts/upgrade-request.mjs on a runtime upgrade', () => {
  const REPO = 'perf/gate';
  const MERGE_BASE = 'c'.repeat(40);
  const HEAD = 'd'.repeat(40);
  const lock = { name: 'shop', lockfileVersion: 3, packages: { '': { name: 'shop' } } };
  const encoded = (text) => ({ content: Buffer.from(text).toString('base64'), encoding: 'base64' });
  let github;
  before(async () => {
    github = await startFakeGitHub([
      [
        'GET',
        new RegExp(`^/repos/${REPO}/compare/main\\.\\.\\.${HEAD}$`),
        () => [200, { merge_base_commit: { sha: MERGE_BASE } }],
      ],
      ['GET', new RegExp(`^/repos/${REPO}/contents/package-lock\\.json$`), () => [200, { sha: 'blob-lock' }]],
      ['GET', new RegExp(`^/repos/${REPO}/git/blobs/blob-lock$`), () => [200, encoded(JSON.stringify(lock))]],
      [
        'GET',
        new RegExp(`^/repos/${REPO}/contents/\\.github/workflows$`),
        () => [200, [{ type: 'file', name: 'ci.yml', path: '.github/workflows/ci.yml' }]],
      ],
      [
        'GET',
        new RegExp(`^/repos/${REPO}/contents/\\.github/workflows/ci\\.yml$`),
        (match, body, url) => [200, encoded(workflow(url.searchParams.get('ref') === HEAD ? '24' : '22'))],
      ],
      ['POST', new RegExp(`^/repos/${REPO}/actions/workflows/upgrade-gate\\.yml/dispatches$`), () => [204]],
    ]);
  });
  after(() => github.close());

  test("Renovate's setup-node bump dispatches the gate with its head commit", async () => {
    const dir = tempDir('perfgate-runtime-request-');
    const env = pullRequestStepEnv(dir, { github, repo: REPO, number: 7, login: 'renovate[bot]', sha: HEAD });
    // Asynchronously, so that the fake API in this process can answer.
    const run = await execFileAsync(
      process.execPath,
      [join(PROJECT_ROOT, 'scripts/upgrade-request.mjs'), '--workflow', 'upgrade-gate.yml'],
      {
        env,
      },
    );
    assert.match(run.stdout, /#7 at d{40}: node 22 → 24; dispatched upgrade-gate\.yml on main/);
    const dispatched = github.requests.find((request) => request.path.endsWith('/dispatches'));
    assert.deepEqual(dispatched.body, { ref: 'main', inputs: { pr: '7', sha: HEAD } });
    assert.match(readFileSync(join(dir, 'outputs'), 'utf8'), /dispatched=true/);
  });
});

describe('scripts/upgrade-gate.mjs on a runtime upgrade', () => {
  const NODE = RUNTIME_KINDS.node.package();
  let registry;
  let dir;
  before(async () => {
    dir = tempDir('perfgate-runtime-gate-');
    const build = (version) =>
      runtimeTarball({ name: NODE, version, executable: 'bin/node', versionLine: `v${version}` });
    registry = await startFakeRegistry({ [NODE]: { '22.5.0': build('22.5.0'), '24.1.0': build('24.1.0') } });
  });
  after(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // A repository whose main has Node 22 in .nvmrc and its CI workflow, and a pull request's
  // commit on top of it that changes `files`; returns that commit.
  let repo;
  const git = (...args) =>
    execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();
  function pullRequest(name, files) {
    git('checkout', '-q', '-b', name, 'main');
    for (const [path, text] of Object.entries(files)) writeFileSync(join(repo, path), text);
    git('commit', '-qam', name);
    const sha = git('rev-parse', 'HEAD');
    git('checkout', '-q', 'main');
    return sha;
  }
  const gate = (args, env = {}) =>
    execFileAsync(process.execPath, [join(PROJECT_ROOT, 'scripts/upgrade-gate.mjs'), ...args], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, GITHUB_OUTPUT: '', ...env },
    }).then(
      (done) => ({ ...done, code: 0 }),
      (error) => error,
    );
  before(() => {
    repo = join(dir, 'repo');
    mkdirSync(join(repo, '.github/workflows'), { recursive: true });
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': {} } }));
    writeFileSync(join(repo, '.nvmrc'), '22\n');
    writeFileSync(join(repo, '.github/workflows/ci.yml'), workflow('22'));
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'base');
  });

  test('a workflow changed beyond setup-node is refused before anything is installed (PG_WORKFLOW_CHANGE)', async () => {
    const head = pullRequest('more', {
      '.nvmrc': '24\n',
      '.github/workflows/ci.yml': workflow('24').replace('- run: npm test', '- run: npm test && ./deploy.sh'),
    });
    const requests = registry.requests.length;
    const run = await gate(['--base', 'main', '--head', head, '--out', join(dir, 'refused')], {
      PERFGATE_RUNTIME_CACHE: join(dir, 'runtimes'),
      ...npmEnvFor(registry.url, dir),
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /PG_WORKFLOW_CHANGE|changes its workflows beyond actions\/setup-node's node-version/);
    assert.match(run.stderr, /\.github\/workflows\/ci\.yml: jobs\.test\.steps\[2\]\.run changes/);
    assert.match(run.stderr, /move the other workflow changes to a pull request of their own/);
    assert.equal(registry.requests.length, requests, 'no runtime was fetched');
  });

  test("a bumped .nvmrc and setup-node's node-version are compared on the old and the new Node, kept for the comment and summarised", async () => {
    const head = pullRequest('upgrade', { '.nvmrc': '24\n', '.github/workflows/ci.yml': workflow("'24'") });
    const config = writeReporterConfig(dir);
    const out = join(dir, 'out');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const quick = [
      '--config',
      config,
      '--duration',
      '0.3',
      '--warmup',
      '0',
      '--min-rounds',
      '2',
      '--max-rounds',
      '2',
      '--no-profile',
    ];
    // Asynchronously: the registry stand-in answers from this process.
    const run = await gate(['--base', 'main', '--head', head, '--out', out, '--', ...quick], {
      GITHUB_STEP_SUMMARY: summary,
      PERFGATE_RUNTIME_CACHE: join(dir, 'runtimes'),
      ...npmEnvFor(registry.url, dir),
    });
    assert.ok([0, 1].includes(run.code), run.stderr);
    assert.match(run.stdout, /upgrade gate: node 22 -> 24/);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison-node-runtime.json'), 'utf8'));
    assert.deepEqual(
      [comparison.sides.base.runtime.version, comparison.sides.head.runtime.version],
      ['22.5.0', '24.1.0'],
    );
    assert.match(readFileSync(summary, 'utf8'), /- node 22 → 24: /);
  });
});
