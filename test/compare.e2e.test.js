// npm run compare for real: two commits of a temporary repository whose head serves
// /hello clearly slower, two installed versions of a package, and bad input. Each run
// must leave no worktree, temp side or server process behind.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { leftoverServers, PROJECT_ROOT, QUICK_HELLO, tempDir } from './helpers/harness.js';
import { baseServersRepository, GIT_ENV, makeHelloCpuBound, makeHelloFail } from './helpers/servers-repo.js';

const QUICK = ['--no-profile', ...QUICK_HELLO, '--min-rounds', '3', '--budget', '60'];

// The compare runs' own temporary directory: other test runs on this machine make theirs in tmpdir().
const COMPARE_TMP = tempDir('perfgate-e2e-tmp-');

function compare(args) {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/compare.mjs'), ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, CI: 'true', GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '', TMPDIR: COMPARE_TMP },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const compareSides = () => readdirSync(COMPARE_TMP).filter((name) => name.startsWith('perfgate-compare-'));

function assertNothingLeft(repo) {
  assert.deepEqual(leftoverServers(), []);
  assert.deepEqual(compareSides(), []);
  if (repo)
    assert.equal(
      execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').length,
      1,
    );
}

// A repository with this project's servers: base as it is, head with CPU work in /hello.
function makeRepository() {
  const { repo, git } = baseServersRepository();
  makeHelloCpuBound(repo);
  git('commit', '-qam', 'slower hello');
  return repo;
}

describe('compare two commits', () => {
  let repo;
  before(() => {
    repo = makeRepository();
  });

  test('a clearly slower head is a regression, fails the check and is reported', () => {
    const out = tempDir();
    const run = compare([
      '--repo',
      repo,
      '--base',
      'main~1',
      '--head',
      'main',
      '--variant',
      'node-http',
      ...QUICK,
      '--out',
      out,
    ]);
    assert.equal(run.code, 1, run.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    const [benchmark] = comparison.benchmarks;
    assert.equal(benchmark.id, 'node-http hello c=10');
    assert.equal(benchmark.mode, 'duet', 'both sides at the same time by default');
    assert.equal(benchmark.verdict.verdict, 'regression');
    assert.ok(['CPU µs/request', 'req/s'].includes(benchmark.verdict.calledBy));
    assert.equal(benchmark.verdicts['CPU µs/request'].verdict, 'regression');
    assert.ok(
      benchmark.samples.head.every(
        (sample, round) => sample.cpuMicrosPerRequest > benchmark.samples.base[round].cpuMicrosPerRequest,
      ),
    );
    assert.ok(benchmark.rounds >= 3);
    assert.equal(benchmark.samples.base.length, benchmark.samples.head.length);
    // Called slower, it was measured once more from fresh servers (--confirm, the default), and
    // that second run decides (the other e2e comparisons skip this second run).
    assert.equal(benchmark.confirmation.first.verdict.verdict, 'regression');
    assert.equal(benchmark.confirmation.repeated, true);
    assert.deepEqual(comparison.gate.regressions, ['node-http hello c=10']);
    assert.match(comparison.sides.base.description, /^main~1 \([0-9a-f]{12}\)$/);
    const report = readFileSync(join(out, 'comparison.md'), 'utf8');
    assert.match(report, /\| node-http hello c=10 \| CPU µs\/request \|.*🔴 regression \|/);
    assert.match(report, /\*\*node-http hello c=10\*\*: 🔴 regression, called by (CPU µs\/request|req\/s)/);
    assert.match(report, /duet: both sides at the same time on the same cores, load engine autocannon/);
    // A change called in duet: each side was also measured alone, beside duet's shared-core figures.
    assert.ok(benchmark.alone.head.cpuMicrosPerRequest > benchmark.alone.base.cpuMicrosPerRequest);
    assert.ok(benchmark.alone.inflation.base > 0 && benchmark.alone.inflation.head > 0);
    assert.match(report, /\*\*Each server alone\*\*/);
    assert.match(
      run.stdout,
      /1 regression; 1 certainly beyond the 10 % gate \(node-http hello c=10\): the check fails\./,
    );
    assert.match(report, /1 benchmark called slower or faster by a first run was measured again, .*: 1 confirmed/);
    assertNothingLeft(repo);
  });

  const badInput = [
    ['an unknown ref', ['--base', 'main', '--head', 'no-such-branch'], /"no-such-branch" is not a commit in/],
    [
      'the same ref twice',
      ['--base', 'main', '--head', 'main'],
      /are the same commit [0-9a-f]{12}: compare two different commits/,
    ],
    [
      'an unknown interval',
      ['--base', 'main~1', '--head', 'main', '--interval', 'median'],
      /--interval must be one of welch, bootstrap, paired, not "median"/,
    ],
    [
      'an unknown mode',
      ['--base', 'main~1', '--head', 'main', '--mode', 'both'],
      /--mode must be one of duet, sequential, not "both"/,
    ],
    [
      'an unknown engine',
      ['--base', 'main~1', '--head', 'main', '--engine', 'nosuch'],
      /engine: "nosuch" is not allowed \(allowed: autocannon, wrk, vegeta\)/,
    ],
  ];
  for (const [what, args, message] of badInput) {
    test(`${what} is a clear error`, () => {
      const run = compare(['--repo', repo, ...args, ...QUICK]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, message);
      assertNothingLeft(repo);
    });
  }

  test('a dirty worktree is a clear error', () => {
    writeFileSync(join(repo, 'package.json'), `${readFileSync(join(repo, 'package.json'), 'utf8')}\n`);
    const run = compare(['--repo', repo, '--base', 'main~1', '--head', 'main', ...QUICK]);
    execFileSync('git', ['checkout', '--', 'package.json'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /has uncommitted changes.*commit or stash them first/);
    assertNothingLeft(repo);
  });
});
// A head that answers 500 is never measured: the check fails and says which benchmark and why; with
// the sides swapped it is the base that fails, and the comparison could not run.
describe('compare with a side that fails its answer check', () => {
  let repo;
  before(() => {
    ({ repo } = baseServersRepository());
    makeHelloFail(repo);
    execFileSync('git', ['commit', '-qam', 'hello answers 500'], { cwd: repo, env: { ...process.env, ...GIT_ENV } });
  });
  const sides = { head: ['--base', 'main~1', '--head', 'main'], base: ['--base', 'main', '--head', 'main~1'] };
  for (const [failing, code, headline] of [
    ['head', 1, /🔴 The head failed 1 benchmark \(node-http hello c=10\): the check fails\./],
    ['base', 2, /⚠️ 1 benchmark could not be compared \(node-http hello c=10\): the check could not run\./],
  ]) {
    test(`a failing ${failing}: exit ${code}, and the report says which benchmark and why`, () => {
      const out = tempDir();
      const run = compare(['--repo', repo, ...sides[failing], '--variant', 'node-http', ...QUICK, '--out', out]);
      assert.equal(run.code, code, run.stderr);
      const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
      const [benchmark] = comparison.benchmarks;
      assert.equal(benchmark.status, 'failed');
      assert.deepEqual(benchmark.failedSides, [failing]);
      assert.match(run.stdout, headline);
      assert.match(
        run.stdout,
        /answered scenario "hello" wrongly, so it was not measured: status: expected 200, got 500/,
      );
      assertNothingLeft(repo);
    });
  }
});

describe('compare two versions of a package', () => {
  test('express at two versions, each installed in isolation', () => {
    const out = tempDir();
    const run = compare([
      '--dep',
      'express@5.0.0',
      '--vs',
      'express@5.1.0',
      '--variant',
      'express',
      ...QUICK,
      // What is tested is the two installs; any verdict will do, so three rounds, measured once.
      '--max-rounds',
      '3',
      '--no-confirm',
      '--budget',
      '15',
      '--out',
      out,
    ]);
    assert.ok([0, 1].includes(run.code), run.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    assert.equal(comparison.sides.base.description, 'express@5.0.0');
    assert.equal(comparison.sides.head.description, 'express@5.1.0');
    assert.equal(comparison.benchmarks[0].status, 'ok');
    assert.ok(comparison.benchmarks[0].verdicts['req/s'].verdict);
    assertNothingLeft();
  });

  test('an unpublished version is a clear error', () => {
    const run = compare(['--dep', 'express@5.0.0', '--vs', 'express@99.0.0', ...QUICK]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /could not install express@99\.0\.0: .*(ETARGET|No matching version)/);
    assertNothingLeft();
  });

  test('two different packages are a clear error', () => {
    const run = compare(['--dep', 'express@5.0.0', '--vs', 'fastify@5.0.0', ...QUICK]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /must name the same package at two versions/);
  });
});
