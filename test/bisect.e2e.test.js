// bisect: the search on its own with a scripted judge, then for real over temporary
// repositories, where one commit of eight makes /hello clearly slower, and bad input.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { bisectCommits } from '../bench/comparison/bisect/search.js';
import { leftoverServers, PROJECT_ROOT, QUICK_HELLO, tempDir } from './helpers/harness.js';
import { GIT_ENV, makeServersRepository } from './helpers/servers-repo.js';

describe('the search', () => {
  const commits = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
  // c5 and later are slower; `unsure` names candidates whose first `unsure[c]` attempts are inconclusive.
  const judgeFor =
    (firstBad, unsure = {}) =>
    async (good, candidate, attempt) => {
      if (attempt <= (unsure[candidate] ?? 0)) return { verdict: 'inconclusive' };
      return {
        verdict:
          commits.indexOf(candidate) >= firstBad && commits.indexOf(good) < firstBad ? 'regression' : 'no change',
      };
    };

  test('finds the first bad commit in log2 steps, each against the latest good one', async () => {
    const found = await bisectCommits({ commits, judge: judgeFor(5) });
    assert.deepEqual([found.outcome, found.good, found.bad], ['found', 'c4', 'c5']);
    assert.deepEqual(
      found.steps.map((step) => `${step.good}-${step.candidate}`),
      ['c0-c7', 'c0-c3', 'c3-c5', 'c3-c4'],
    );
  });

  test('a small but certain slowdown is a bad step too: it is bisected, and a step holding it is not taken for good', async () => {
    const small = async (good, candidate) => ({
      verdict: commits.indexOf(candidate) >= 5 && commits.indexOf(good) < 5 ? 'small regression' : 'no change',
    });
    const found = await bisectCommits({ commits, judge: small });
    assert.deepEqual([found.outcome, found.good, found.bad], ['found', 'c4', 'c5']);
  });

  test('no step between the ends', async () => {
    const found = await bisectCommits({ commits, judge: judgeFor(99) });
    assert.deepEqual([found.outcome, found.bad, found.steps.length], ['no step', null, 1]);
  });

  test('an inconclusive step is measured once more with attempt 2', async () => {
    const found = await bisectCommits({ commits, judge: judgeFor(5, { c3: 1 }) });
    assert.equal(found.outcome, 'found');
    assert.deepEqual(
      found.steps.filter((step) => step.candidate === 'c3').map((step) => [step.attempt, step.verdict]),
      [
        [1, 'inconclusive'],
        [2, 'no change'],
      ],
    );
  });

  test('a step that stays inconclusive ends with the smallest range it can defend', async () => {
    const found = await bisectCommits({ commits, judge: judgeFor(5, { c5: 2 }) });
    assert.deepEqual([found.outcome, found.good, found.bad], ['unresolved', 'c3', 'c7']);
  });
});

// Wide bands: the machine is shared and noisy, the slowdown is many times over, and what is
// tested is where the search goes, not how fine a change it can see. A step called slower is measured
// a second time, as compare does: without it, a same-code step called a small regression by chance (3 rounds
// of 0.5 s) sent the search to the wrong commit in about one run of thirty.
const QUICK = [
  '--variant',
  'node-http',
  ...QUICK_HELLO,
  '--interval',
  'welch',
  '--min-rounds',
  '3',
  '--max-rounds',
  '6',
  '--threshold',
  '90',
  '--min-effect',
  '50',
  '--budget',
  '30',
];

// Each run gets a temporary directory of its own, so what it leaves there is its own.
function bisect(args) {
  const scratch = tempDir('perfgate-bisect-tmp-');
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/bisect.mjs'), ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, CI: 'true', GITHUB_STEP_SUMMARY: '', TMPDIR: scratch },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, left: readdirSync(scratch) };
}

describe('bisect over a repository', () => {
  let repo;
  let shas;
  let slowLine;
  before(() => {
    ({ repo, shas, slowLine } = makeServersRepository(['same', 'same', 'same', 'same', 'slower', 'same', 'same']));
  });

  test('names the commit that made /hello slower, with each step and the profile of that commit', () => {
    const out = tempDir();
    const run = bisect([
      '--repo',
      repo,
      '--good',
      shas[0],
      '--bad',
      'main',
      '--benchmark',
      'node-http hello c=10 - req/s',
      ...QUICK,
      '--out',
      out,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(readFileSync(join(out, 'bisect.json'), 'utf8'));
    // Each step's verdict, said when the search went wrong.
    const steps = JSON.stringify(result.steps.map((step) => [step.candidate.slice(0, 7), step.verdict, step.change]));
    assert.equal(result.outcome, 'found', steps);
    assert.equal(result.firstBad.sha, shas[5], steps);
    assert.equal(result.firstBad.subject, 'hash the answer 5');
    assert.equal(result.range.commits, 8);
    assert.ok(result.steps.length >= 4 && result.steps.length <= 8, `${result.steps.length} steps`);
    assert.equal(result.profile.grew[0].functionName, 'hashBodySlowly');
    assert.equal(
      `${result.profile.grew[0].path}:${result.profile.grew[0].line}`,
      `servers/routes/http-routes.js:${slowLine}`,
    );
    const markdown = readFileSync(join(out, 'bisect.md'), 'utf8');
    assert.match(markdown, new RegExp(`\\*\\*First bad commit: ${shas[5].slice(0, 12)}\\*\\* hash the answer 5`));
    assert.match(markdown, /\| hashBodySlowly \| servers\/routes\/http-routes\.js:\d+ \|/);
    assert.deepEqual(leftoverServers(), []);
    assert.deepEqual(run.left, []);
    assert.equal(
      execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').length,
      1,
    );
  });

  test('a range with no slowdown ends "no step found"', () => {
    const out = tempDir();
    const run = bisect(['--repo', repo, '--good', shas[0], '--bad', shas[3], ...QUICK, '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(readFileSync(join(out, 'bisect.json'), 'utf8')).outcome, 'no step');
    assert.match(run.stdout, /\*\*No step found\*\*/);
  });

  const badInput = [
    [
      'a good ref that is not an ancestor of bad',
      () => ['--good', 'main', '--bad', shas[2]],
      /--good main is not an ancestor of --bad [0-9a-f]+: .*swap them/,
    ],
    [
      'a benchmark name that matches nothing',
      () => ['--good', shas[0], '--bad', 'main', '--benchmark', 'node-http json c=999'],
      /no benchmark is named "node-http json c=999": the suite has node-http hello c=10/,
    ],
    ['a ref that does not exist', () => ['--good', 'nope', '--bad', 'main'], /"nope" is not a commit in/],
    ['no good ref', () => ['--bad', 'main'], /--good is required/],
  ];
  for (const [what, args, message] of badInput) {
    test(`${what} is a clear error`, () => {
      const run = bisect(['--repo', repo, ...args(), ...QUICK]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.deepEqual(run.left, []);
    });
  }
});
