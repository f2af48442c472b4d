// Dependency overrides of a side: a project whose dependency `outer` has its own nested copy of
// `inner` (the project locks inner@2 at the top, outer needs inner@^1), all from a registry
// stand-in on loopback. An override reaches the nested copy (what outer's `require` sees) from a
// registry version, a file: tarball and a git+file:// repository; an override of a package the
// tree lacks is a one-line error before anything starts; the report lists what changed where.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lockfileChanges, overridesOf, parseOverride } from '../bench/comparison/overrides.js';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { renderComment } from '../bench/github/comment.js';
import { resolveSideOverrides } from '../bench/comparison/plan.js';
import { createWorkRoot, prepareGitSide, prepareOverrideSide } from '../bench/comparison/sides.js';
import { validateWith } from '../bench/config/schema.js';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { innerTarball, nestedInnerPackages, startFakeRegistryProcess } from './helpers/fake-registry.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';
import { git } from './helpers/servers-repo.js';
import { setProcessEnv, tempDir } from './helpers/harness.js';

const COMPARE = fileURLToPath(new URL('../scripts/compare.mjs', import.meta.url));
const QUIET_NPM = ['--no-audit', '--no-fund', '--loglevel=error'];

describe('dependency overrides of a side', () => {
  let registry;
  let project;
  let restoreEnv;
  const work = createWorkRoot();

  before(async () => {
    registry = await startFakeRegistryProcess(nestedInnerPackages());
    // npm, here and in the sides, asks the stand-in only, with a cache of its own.
    restoreEnv = setProcessEnv({ npm_config_registry: registry.url, npm_config_cache: tempDir('perfgate-npm-cache-') });
    project = tempDir('perfgate-overrides-');
    const manifest = {
      name: 'shop',
      version: '1.0.0',
      private: true,
      dependencies: { inner: '2.0.0', outer: '1.0.0' },
    };
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', ...QUIET_NPM], { cwd: project });
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'shop');
  });
  after(async () => {
    work.remove();
    await registry?.close();
    restoreEnv?.();
  });

  const projectLock = () => JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  // What outer's nested require of inner sees in a side, and what the side's top level sees.
  const seen = (side) => ({
    nested: execFileSync(process.execPath, ['-p', "require('outer')"], { cwd: side.root, encoding: 'utf8' }).trim(),
    top: execFileSync(process.execPath, ['-p', "require('inner/package.json').version"], {
      cwd: side.root,
      encoding: 'utf8',
    }).trim(),
  });
  const side = (label, text) =>
    prepareOverrideSide({ label, work, projectRoot: project, overrides: overridesOf({}, [text]) });

  test('the project as locked: outer has its own copy of inner', () => {
    const lock = projectLock();
    assert.equal(lock.packages['node_modules/inner'].version, '2.0.0');
    assert.equal(lock.packages['node_modules/outer/node_modules/inner'].version, '1.1.0');
  });

  test('a registry version reaches the nested copy, and the changes name it and where it is', () => {
    const overridden = side('version', 'inner@1.0.0');
    assert.deepEqual(seen(overridden), { nested: '1.0.0', top: '1.0.0' });
    assert.equal(overridden.description, 'the working tree with inner@1.0.0');
    // One copy now serves both: the nested one is gone, the top one changed.
    assert.deepEqual(lockfileChanges(projectLock(), JSON.parse(readFileSync(overridden.lockfile, 'utf8'))), [
      { name: 'inner', from: '2.0.0', to: '1.0.0', where: 'node_modules/inner' },
      { name: 'inner', from: '1.1.0', to: 'absent', where: 'node_modules/outer/node_modules/inner' },
    ]);
  });

  test('a file: tarball reaches the nested copy', () => {
    const dir = tempDir('perfgate-tarball-');
    const tarball = join(dir, 'inner-3.0.0.tgz');
    writeFileSync(tarball, innerTarball('3.0.0').tarball);
    const overridden = side('tarball', `inner@file:${tarball}`);
    assert.deepEqual(seen(overridden), { nested: '3.0.0', top: '3.0.0' });
    const changes = lockfileChanges(projectLock(), JSON.parse(readFileSync(overridden.lockfile, 'utf8')));
    assert.ok(changes.some((change) => change.where === 'node_modules/inner' && change.to.startsWith('3.0.0 (file:')));
  });

  test('a git+file:// repository reaches the nested copy', () => {
    const repo = tempDir('perfgate-inner-git-');
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'inner', version: '4.0.0' }));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'inner 4');
    git(repo, 'tag', 'v4');
    const overridden = side('git', `inner@git+file://${repo}#v4`);
    assert.deepEqual(seen(overridden), { nested: '4.0.0', top: '4.0.0' });
  });

  test('an override of a package the tree lacks is one clear line, before anything starts', () => {
    const run = spawnSync(process.execPath, [COMPARE, '--override', 'left-pad@1.3.0', '--out', join(project, 'out')], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.equal(run.status, 2, run.stderr);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /left-pad, which .*package-lock\.json does not install anywhere in its tree/);
    assert.throws(() => parseOverride('left-pad'), { code: 'PG_BAD_OVERRIDE' });
  });

  test("perfgate.config's overrides set each side's, the flags add to them, and both are checked against the tree", () => {
    const request = (overrides, flags) => ({
      project: { root: project, config: { overrides } },
      sideOverrides: { base: [], head: flags },
    });
    assert.deepEqual(
      resolveSideOverrides(request({ base: { inner: '1.1.0' }, head: { inner: '1.0.0' } }, ['outer@1.0.0'])),
      {
        base: { inner: '1.1.0' },
        head: { inner: '1.0.0', outer: '1.0.0' },
      },
    );
    assert.deepEqual(resolveSideOverrides(request({ head: { inner: '1.0.0' } }, ['inner@2.0.0'])).head, {
      inner: '2.0.0',
    });
    assert.throws(() => resolveSideOverrides(request({ base: { 'left-pad': '1.3.0' } }, [])), {
      code: 'PG_UNKNOWN_OVERRIDE',
    });
  });

  test("compare --override measures the project's server with the override, sandboxed, and keeps both sides' lockfiles", () => {
    writeFileSync(
      join(project, 'server.js'),
      "const version = require('outer');\nrequire('node:http').createServer((q, s) => s.end(version)).listen(process.env.PORT, process.env.HOST);\n",
    );
    // The config's field is taken by the project's schema; the flag adds to it.
    const config = {
      overrides: { base: {}, head: {} },
      servers: { api: { command: ['node', 'server.js'] } },
      scenarios: { version: { path: '/', expect: { status: 200 } } },
      connections: [2],
    };
    writeFileSync(join(project, 'perfgate.config.json'), JSON.stringify(config));
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'server');
    execFileSync('npm', ['ci', '--ignore-scripts', ...QUIET_NPM], { cwd: project });
    const out = join(project, 'out');
    const quick = ['--duration', '0.3', '--warmup', '0', '--min-rounds', '2', '--max-rounds', '2', '--no-profile'];
    const run = spawnSync(process.execPath, [COMPARE, '--override', 'inner@1.0.0', '--out', out, ...quick], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '' },
    });
    assert.ok([0, 1].includes(run.status), run.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    assert.equal(comparison.benchmarks[0].status, 'ok');
    assert.equal(comparison.sides.head.description, 'the working tree with inner@1.0.0');
    // Both sides installed the same way, apart from the working tree: the override is the one difference.
    assert.equal(comparison.sides.base.description, 'the working tree (installed apart)');
    const kept = (side) => JSON.parse(readFileSync(join(out, `${side}.package-lock.json`), 'utf8')).packages;
    assert.equal(kept('base')['node_modules/outer/node_modules/inner'].version, '1.1.0');
    assert.equal(kept('head')['node_modules/inner'].version, '1.0.0');
    assert.equal(kept('head')['node_modules/outer/node_modules/inner'], undefined);
    assert.deepEqual(comparison.dependencyChanges, [
      { name: 'inner', from: '2.0.0', to: '1.0.0', where: 'node_modules/inner' },
      { name: 'inner', from: '1.1.0', to: 'absent', where: 'node_modules/outer/node_modules/inner' },
    ]);
    assert.match(readFileSync(join(out, 'comparison.md'), 'utf8'), /Dependencies changed: 2/);
    // An override may be a tarball or a git URL, someone else's code: both sides ran sandboxed
    // (what else the sandbox record says, its network and limits, is the sandbox tests' to check).
    for (const key of ['base', 'head']) {
      const { sandboxed, misbehaviour } = comparison.sides[key].sandbox;
      assert.deepEqual(
        { sandboxed, misbehaviour },
        sandboxUnavailable() ? { sandboxed: false, misbehaviour: undefined } : { sandboxed: true, misbehaviour: [] },
        key,
      );
    }
  });

  test("a commit's side takes its overrides, and never changes the node_modules it would have reused", () => {
    // The commit locks what the working tree does, so the side would link the project's node_modules.
    const sha = git(project, 'rev-parse', 'HEAD');
    const overridden = prepareGitSide({
      repo: project,
      sha,
      ref: 'main',
      label: 'commit',
      work,
      projectRoot: project,
      install: ['npm', 'ci', '--ignore-scripts', ...QUIET_NPM],
      overrides: { inner: '1.0.0' },
    });
    assert.equal(overridden.description, `main (${sha.slice(0, 12)}) with inner@1.0.0`);
    assert.deepEqual(seen(overridden), { nested: '1.0.0', top: '1.0.0' });
    assert.deepEqual(seen({ root: project }), { nested: '1.1.0', top: '2.0.0' });
  });
});

test('the report, the PR comment and comparison.json list the dependencies that changed, with where in the tree', () => {
  const comparison = {
    format: 'perfgate-comparison',
    sides: { base: { description: 'the working tree' }, head: { description: 'the working tree with inner@1.1.0' } },
    ...comparisonFixture(),
    benchmarks: [],
    gate: { failed: false, failThreshold: 0.1, regressions: [], smallRegressions: [] },
    dependencyChanges: [
      { name: 'inner', from: '2.0.0', to: '1.1.0', where: 'node_modules/inner' },
      { name: 'inner', from: '1.0.0', to: 'absent', where: 'node_modules/outer/node_modules/inner' },
    ],
  };
  const markdown = comparisonMarkdown(comparison);
  assert.match(markdown, /Dependencies changed: 2 \(base\.package-lock\.json vs head\.package-lock\.json\)/);
  assert.match(markdown, /\| inner \| 2\.0\.0 \| 1\.1\.0 \| node&#95;modules\/inner \|/);
  assert.match(markdown, /\| inner \| 1\.0\.0 \| absent \| node&#95;modules\/outer\/node&#95;modules\/inner \|/);
  const comment = renderComment(
    { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
    { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
  );
  assert.match(comment, /Dependencies changed: 2/);
  assert.match(comment, /\| `inner` \| `1\.0\.0` \| `absent` \| `node_modules\/outer\/node_modules\/inner` \|/);
  const schema = comparisonSchema.properties.dependencyChanges;
  assert.deepEqual(validateWith(schema, comparison.dependencyChanges, 'dependencyChanges'), []);
  assert.notDeepEqual(validateWith(schema, [{ name: 'inner' }], 'dependencyChanges'), []);
});
