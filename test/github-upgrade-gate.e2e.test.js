// The upgrade gate: which framework packages a dependabot pull request upgrades (from the two
// lockfiles), the comparisons it asks of `npm run compare`, and scripts/upgrade-gate.mjs for
// a real upgrade, when nothing relevant changed, and when the input is wrong.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { YAML } from 'zx';
import {
  changedFrameworks,
  comparisonRuns,
  FRAMEWORK_PACKAGES,
  lockedVersions,
  packageSlug,
} from '../bench/github/packages.js';
import { bareCheckout } from './helpers/bare-checkout.js';
import { pullRequestStepEnv, startFakeGitHub } from './helpers/fake-github.js';
import { PROJECT_ROOT, QUICK_HELLO, tempDir } from './helpers/harness.js';

const execFileAsync = promisify(execFile);

// A well-formed sha512 integrity (its value is checked by npm when it installs, not here).
const INTEGRITY = `sha512-${'A'.repeat(86)}==`;
const lock = (versions) => ({
  name: 'perfgate',
  lockfileVersion: 3,
  packages: {
    '': { name: 'perfgate', dependencies: {} },
    ...Object.fromEntries(
      Object.entries(versions).map(([key, value]) => [
        `node_modules/${key}`,
        typeof value === 'string' ? { version: value, integrity: INTEGRITY } : { integrity: INTEGRITY, ...value },
      ]),
    ),
  },
});

// perfgate's own lockfile, and one where express is locked at the version its express4 alias has
// (with the same closure, moved under express): two real, installable sides.
const PROJECT_LOCK = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8'));
function withExpressFromAlias(projectLock) {
  const packages = Object.fromEntries(
    Object.entries(projectLock.packages).filter(
      ([key]) => key !== 'node_modules/express' && !key.startsWith('node_modules/express/'),
    ),
  );
  for (const [key, entry] of Object.entries(projectLock.packages)) {
    if (key === 'node_modules/express4' || key.startsWith('node_modules/express4/')) {
      const { name, ...rest } = entry;
      packages[key.replace('node_modules/express4', 'node_modules/express')] =
        key === 'node_modules/express4' ? rest : entry;
    }
  }
  return { ...projectLock, packages };
}

const BASE = {
  express: '5.1.0',
  fastify: '5.2.0',
  '@koa/router': '15.0.0',
  express4: { name: 'express', version: '4.21.0' },
  zx: '8.0.0',
};

describe('changed framework packages', () => {
  test('only frameworks locked at the top on both sides with different versions', () => {
    const head = {
      ...BASE,
      express: '5.2.0',
      '@koa/router': '15.1.0',
      express4: { name: 'express', version: '4.22.0' },
      zx: '8.1.0',
      hono: '4.0.0',
    };
    assert.deepEqual(changedFrameworks(lock(BASE), lock(head)), [
      { kind: 'package', name: 'express', from: '5.1.0', to: '5.2.0' },
      { kind: 'package', name: '@koa/router', from: '15.0.0', to: '15.1.0' },
    ]);
    assert.deepEqual(changedFrameworks(lock(BASE), lock({ ...BASE, zx: '9.0.0' })), []);
  });

  test("an alias under a framework's name is not that framework", () => {
    assert.deepEqual(lockedVersions(lock({ express: { name: 'not-express', version: '1.0.0' }, koa: '3.0.0' }), 'x'), {
      koa: '3.0.0',
    });
  });

  test('a lockfile without a packages map (lockfileVersion 1) is a clear error', () => {
    assert.throws(
      () => changedFrameworks({ lockfileVersion: 1, dependencies: {} }, lock(BASE)),
      /the base package-lock\.json has no "packages" map: the upgrade gate compares the package-lock\.json \(lockfileVersion 2 or 3\)/,
    );
  });

  test("one comparison per package, old vs new, each installed from its side's lockfile, with the extra compare options", () => {
    const runs = comparisonRuns(
      [{ kind: 'package', name: '@hono/node-server', from: '2.0.0', to: '2.1.0' }],
      '/w',
      ['--duration', '5'],
      { base: '/w/lockfiles/base', head: '/w/lockfiles/head' },
    );
    assert.deepEqual(
      runs.map((run) => [run.slug, run.args]),
      [
        [
          'hono-node-server',
          [
            '--dep',
            '@hono/node-server@2.0.0',
            '--dep-lock',
            '/w/lockfiles/base',
            '--vs',
            '@hono/node-server@2.1.0',
            '--vs-lock',
            '/w/lockfiles/head',
            '--out',
            '/w/hono-node-server',
            '--duration',
            '5',
          ],
        ],
      ],
    );
    assert.equal(packageSlug('ultimate-express'), 'ultimate-express');
  });

  test('dependabot groups exactly the framework packages the gate compares', () => {
    const config = YAML.parse(readFileSync(join(PROJECT_ROOT, '.github/dependabot.yml'), 'utf8'));
    const npm = config.updates.find((update) => update['package-ecosystem'] === 'npm');
    assert.deepEqual([...npm.groups.frameworks.patterns].sort(), [...FRAMEWORK_PACKAGES].sort());
  });
});

describe('scripts/upgrade-gate.mjs', () => {
  const GIT_ENV = {
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };

  function repository(versions = BASE) {
    const repo = tempDir('perfgate-gate-');
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock(versions)));
    const git = (...args) =>
      execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'base');
    return repo;
  }

  function gate(repo, args) {
    const summary = join(repo, 'summary.md');
    writeFileSync(summary, '');
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/upgrade-gate.mjs'), ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: '' },
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr, summary: readFileSync(summary, 'utf8') };
  }

  test('a pull request that upgrades no framework passes without measuring', () => {
    const repo = repository();
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock({ ...BASE, zx: '9.0.0' })));
    const run = gate(repo, ['--base', 'main', '--out', join(repo, 'out'), '--', '--duration', '1']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no framework package and no Node.js version changed since main: nothing to compare/);
    assert.match(run.summary, /nothing to compare/);
  });

  test('an upgraded framework is compared old vs new for real, each installed from its own lockfile, kept for the comment and summarised', () => {
    const repo = tempDir('perfgate-gate-');
    const git = (...args) =>
      execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    const older = withExpressFromAlias(PROJECT_LOCK);
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(older));
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'base');
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(PROJECT_LOCK));
    const [from, to] = [older, PROJECT_LOCK].map((each) => each.packages['node_modules/express'].version);
    const out = join(repo, 'out');
    // What is tested is the gate's plumbing (sides from each lockfile, the report, the summary line
    // that follows the exit code): three rounds, measured once, whatever the verdict.
    const quick = [
      '--variant',
      'express',
      ...QUICK_HELLO,
      '--min-rounds',
      '3',
      '--max-rounds',
      '3',
      '--no-confirm',
      '--budget',
      '15',
    ];
    const run = gate(repo, ['--base', 'main', '--out', out, '--', ...quick]);
    assert.ok([0, 1].includes(run.code), run.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison-express.json'), 'utf8'));
    assert.deepEqual(
      [comparison.sides.base.description, comparison.sides.head.description],
      [`express@${from}`, `express@${to}`],
    );
    assert.deepEqual(
      comparison.benchmarks.map((benchmark) => `${benchmark.id}: ${benchmark.status}`),
      ['express hello c=10: ok'],
    );
    assert.match(readFileSync(join(out, 'comparison-express.md'), 'utf8'), /\| express hello c=10 \| req\/s \|/);
    assert.match(
      run.summary,
      new RegExp(
        `- express ${from.replaceAll('.', '\\.')} → ${to.replaceAll('.', '\\.')}: ${run.code === 1 ? 'FAILS \\(a regression, or a benchmark the new version failed\\)' : 'no regression'}`,
      ),
    );
  });

  const hostileEntries = [
    [
      'a remote tarball',
      { version: '5.2.0', resolved: 'https://evil.example/express-5.2.0.tgz', integrity: INTEGRITY },
      /a remote tarball \(https:\/\/evil\.example\/express-5\.2\.0\.tgz\), not https:\/\/registry\.npmjs\.org\/express\/-\/express-5\.2\.0\.tgz/,
    ],
    [
      'a git URL',
      { version: '5.2.0', resolved: 'git+ssh://git@github.com/user/express.git#abc', integrity: INTEGRITY },
      /a git URL \(git\+ssh:/,
    ],
    [
      'a github: version',
      { version: 'github:user/express', integrity: INTEGRITY },
      /version "github:user\/express", not an exact registry version/,
    ],
    ['no integrity', { version: '5.2.0' }, /node_modules\/express as no integrity/],
    [
      'a dependency without integrity',
      { version: '5.2.0', integrity: INTEGRITY, dependencies: { qs: '^6.0.0' } },
      /node_modules\/qs as no integrity/,
      { 'node_modules/qs': { version: '6.14.0' } },
    ],
  ];
  for (const [what, entry, message, more = {}] of hostileEntries) {
    test(`a pull request's lockfile with ${what} is refused before anything is installed (exit 2)`, () => {
      const repo = repository();
      const head = lock(BASE);
      Object.assign(head.packages, { 'node_modules/express': entry, ...more });
      writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(head));
      const run = gate(repo, ['--base', 'main', '--out', join(repo, 'out')]);
      assert.equal(run.code, 2, run.stdout);
      assert.match(run.stderr, /the pull request's package-lock\.json locks /);
      assert.match(run.stderr, message);
      assert.match(run.stderr, /nothing was installed/);
      assert.ok(!existsSync(join(repo, 'out', 'runs')), 'no side was prepared');
    });
  }

  test("--head reads the pull request's lockfile from that commit, never the working tree's", () => {
    const repo = repository();
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock({ ...BASE, zx: '9.0.0' })));
    execFileSync('git', ['commit', '-qam', 'head'], { cwd: repo, env: { ...process.env, ...GIT_ENV } });
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock({ ...BASE, express: '9.9.9' })));
    const run = gate(repo, ['--base', 'main~1', '--head', 'main', '--out', join(repo, 'out')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no framework package and no Node.js version changed since main~1: nothing to compare/);
  });

  const badInput = [
    [
      'an unknown base',
      ['--base', 'no-such-ref', '--out', 'out'],
      /package-lock\.json at no-such-ref cannot be read \(fatal: invalid object name 'no-such-ref'\.\)/,
    ],
    [
      'a base that looks like an option',
      ['--base', '--output=x', '--out', 'out'],
      /package-lock\.json at --output=x cannot be read/,
    ],
    [
      'no --out, and a compare option before --',
      ['--base', 'main', '--duration', '1'],
      /unknown option --duration \(compare options go after --\)[\s\S]*--out is required/,
    ],
  ];
  for (const [what, args, message] of badInput) {
    test(`${what} is a clear error (exit 2)`, () => {
      const run = gate(repository(), args);
      assert.equal(run.code, 2, run.stdout);
      assert.match(run.stderr, message);
    });
  }
});

test('compare --dep-lock refuses a version other than the one its lockfile locks, before installing anything', () => {
  const dir = tempDir('perfgate-locked-');
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(PROJECT_LOCK));
  const locked = PROJECT_LOCK.packages['node_modules/express'].version;
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/compare.mjs'),
      '--dep',
      'express@1.0.0',
      '--dep-lock',
      dir,
      '--vs',
      `express@${locked}`,
      '--vs-lock',
      dir,
      '--out',
      join(dir, 'out'),
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 2, run.stdout);
  assert.match(
    run.stderr,
    new RegExp(`express@1\\.0\\.0 is not what .*package-lock\\.json locks \\(${locked.replaceAll('.', '\\.')}\\)`),
  );
});

describe("scripts/upgrade-request.mjs: the self-hosted gate runs only for the update bots' pull requests that change a measured framework", () => {
  const REPO = 'perf/gate';
  const MERGE_BASE = 'c'.repeat(40);
  const HEAD = 'd'.repeat(40);
  let github;
  let headLock;
  let bare;
  before(async () => {
    bare = bareCheckout(); // the job installs nothing
    const blob = (value) => ({ content: Buffer.from(JSON.stringify(value)).toString('base64'), encoding: 'base64' });
    github = await startFakeGitHub([
      [
        'GET',
        new RegExp(`^/repos/${REPO}/compare/main\\.\\.\\.${HEAD}$`),
        () => [200, { merge_base_commit: { sha: MERGE_BASE } }],
      ],
      [
        'GET',
        new RegExp(`^/repos/${REPO}/contents/package-lock\\.json$`),
        (match, body, url) => [200, { sha: url.searchParams.get('ref') === HEAD ? 'blob-head' : 'blob-base' }],
      ],
      [
        'GET',
        new RegExp(`^/repos/${REPO}/git/blobs/(blob-head|blob-base)$`),
        (match) => [200, blob(match[1] === 'blob-head' ? headLock : lock(BASE))],
      ],
      ['POST', new RegExp(`^/repos/${REPO}/actions/workflows/upgrade-gate\\.yml/dispatches$`), () => [204]],
    ]);
  });
  after(() => github.close());

  async function request(author) {
    const dir = tempDir('perfgate-upgrade-request-');
    const env = pullRequestStepEnv(dir, { github, repo: REPO, number: 12, login: author, sha: HEAD });
    const first = github.requests.length;
    // Asynchronous, so that the fake API in this process can answer.
    const run = await execFileAsync(
      process.execPath,
      [join(bare, 'scripts/upgrade-request.mjs'), '--workflow', 'upgrade-gate.yml'],
      {
        env,
      },
    ).then(
      (done) => ({ ...done, code: 0 }),
      (error) => error,
    );
    const mine = github.requests.slice(first);
    return {
      code: run.code,
      stdout: run.stdout,
      stderr: run.stderr,
      outputs: readFileSync(join(dir, 'outputs'), 'utf8'),
      dispatch: mine.find((r) => r.path.endsWith('/dispatches')),
      calls: mine.length,
    };
  }

  test("an upgraded framework in Dependabot's or Renovate's pull request dispatches the gate with its head commit", async () => {
    headLock = lock({ ...BASE, fastify: '5.3.0' });
    for (const bot of ['dependabot[bot]', 'renovate[bot]']) {
      const run = await request(bot);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.dispatch.body, { ref: 'main', inputs: { pr: '12', sha: HEAD } });
      assert.match(run.stdout, /fastify 5\.2\.0 → 5\.3\.0; dispatched upgrade-gate\.yml on main/);
    }
  });

  test('a lockfile entry the gate would not install fails the job before anything is dispatched', async () => {
    headLock = lock({ ...BASE, fastify: { version: '5.3.0', resolved: 'git+https://github.com/evil/fastify.git#1' } });
    const run = await request('dependabot[bot]');
    assert.equal(run.code, 2, run.stdout);
    assert.equal(run.dispatch, undefined);
    assert.match(run.stderr, /the pull request's package-lock\.json locks node_modules\/fastify as a git URL/);
  });

  test("no measured framework changed, or not dependabot's pull request: nothing runs on the benchmark machine", async () => {
    headLock = lock({ ...BASE, zx: '9.0.0' });
    const unchanged = await request('dependabot[bot]');
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.equal(unchanged.dispatch, undefined);
    assert.match(
      unchanged.stdout,
      /no measured framework and no Node.js version changed; the self-hosted gate does not run/,
    );
    assert.equal(unchanged.outputs, 'dispatched=false\n');
    // A lockfile-only pull request by a person, or by another bot: only a maintainer's
    // /perfgate-upgrade runs the gate (test/github-trusted-trigger.e2e.test.js).
    headLock = lock({ ...BASE, fastify: '5.3.0' });
    for (const author of ['someone', 'renovate-lookalike[bot]']) {
      const human = await request(author);
      assert.equal(human.calls, 0);
      assert.equal(human.dispatch, undefined);
      assert.match(
        human.stdout,
        /#12 is by @\S+, not dependabot\[bot\] or renovate\[bot\]: no upgrade gate unless a maintainer asks for it/,
      );
    }
  });
});
