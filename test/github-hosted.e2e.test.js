// The hosted mode's trusted half (scripts/pr-comment.mjs trust / post, bench/github/hosted-run.js)
// against a fake GitHub API on loopback: a finished pull_request run is trusted only when its
// workflow file at the head is the default branch's blob (else the required status stays pending,
// saying why, and nothing is posted); a trusted run's artifact is still hostile data: one that lies
// about its commit or pull request is refused and the status says so; a valid one gets the comment
// and the status of its gate. Then the hosted job's own first step (scripts/approved-commit.mjs on
// a pull_request event) on a real repository.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { pullRequestOrigin, runStepScript, startFakeGitHub, stepOutputs } from './helpers/fake-github.js';
import { tempDir } from './helpers/harness.js';

const run = promisify(execFile);
const REPO = 'perf/gate';
const HEAD = 'a'.repeat(40);
const WORKFLOW = '.github/workflows/bench-hosted.yml';

const comparison = (failed) => ({
  format: 'perfgate-comparison',
  version: 1,
  sides: { base: { description: 'merge base' }, head: { description: 'head' } },
  settings: {},
  benchmarks: [
    {
      // Left open by the machine's noise (bench/comparison/rounds.js): the comment says so.
      id: 'node-http hello c=10',
      status: 'ok',
      rounds: 12,
      verdict: {
        verdict: 'inconclusive',
        calledBy: 'req/s',
        resolved: false,
        notes: [],
        noisy: { metric: 'req/s', spread: 0.153 },
      },
      verdicts: {
        'req/s': { verdict: 'inconclusive', ci: [-0.12, 0.1] },
        'p99 latency': { verdict: 'no change', ci: [-0.05, 0.04] },
      },
      samples: {
        base: [{ requestsPerSecond: 1000, p99LatencyMs: 2 }],
        head: [{ requestsPerSecond: 1100, p99LatencyMs: 2 }],
      },
    },
    { id: 'fastify hello c=10', status: 'skipped', reason: 'not installed' },
  ],
  gate: { metric: 'req/s', failThreshold: 0.1, failed, regressions: [] },
});

describe('bench-hosted-report: the comment and the required status of a hosted run', () => {
  let github;
  let blobs;
  let pull;
  let comments;
  before(async () => {
    github = await startFakeGitHub([
      [
        'GET',
        new RegExp(`^/repos/${REPO}/contents/(.+)$`),
        (match, body, url) => {
          const sha = blobs[`${match[1]}@${url.searchParams.get('ref')}`];
          return sha ? [200, { type: 'file', path: match[1], sha }] : [404, { message: 'Not Found' }];
        },
      ],
      ['GET', new RegExp(`^/repos/${REPO}/pulls/7$`), () => [200, pull]],
      ['GET', new RegExp(`^/repos/${REPO}/issues/7/comments$`), () => [200, comments]],
      [
        'POST',
        new RegExp(`^/repos/${REPO}/issues/7/comments$`),
        (match, body) => {
          comments.push({ id: 1, user: { login: 'github-actions[bot]' }, body: body.body });
          return [201, comments.at(-1)];
        },
      ],
      [
        'PATCH',
        new RegExp(`^/repos/${REPO}/issues/comments/1$`),
        (match, body) => {
          comments[0].body = body.body;
          return [200, comments[0]];
        },
      ],
      ['POST', new RegExp(`^/repos/${REPO}/statuses/([0-9a-f]{40})$`), () => [201, {}]],
    ]);
  });
  after(() => github.close());
  beforeEach(() => {
    github.requests.length = 0;
    blobs = { [`${WORKFLOW}@main`]: 'f'.repeat(40), [`${WORKFLOW}@${HEAD}`]: 'f'.repeat(40) };
    pull = { number: 7, base: { ref: 'main' }, head: { sha: HEAD } };
    comments = [];
  });

  async function step(args, runFields = {}) {
    const dir = tempDir('perfgate-hosted-');
    writeFileSync(
      join(dir, 'event.json'),
      JSON.stringify({
        action: 'completed',
        repository: { default_branch: 'main' },
        workflow_run: {
          id: 42,
          name: 'bench-hosted',
          event: 'pull_request',
          path: WORKFLOW,
          head_sha: HEAD,
          head_branch: 'feature',
          pull_requests: [],
          ...runFields,
        },
      }),
    );
    writeFileSync(join(dir, 'outputs'), '');
    const first = github.requests.length;
    const result = await runStepScript(
      'pr-comment.mjs',
      args,
      {
        GITHUB_EVENT_PATH: join(dir, 'event.json'),
        GITHUB_REPOSITORY: REPO,
        GITHUB_TOKEN: 't',
        GITHUB_API_URL: github.url,
        GITHUB_OUTPUT: join(dir, 'outputs'),
      },
      dir,
    );
    const mine = github.requests.slice(first);
    return {
      ...result,
      outputs: stepOutputs(join(dir, 'outputs')),
      statuses: mine
        .filter((each) => each.path.includes('/statuses/'))
        .map((each) => ({ sha: each.path.split('/').at(-1), ...each.body })),
      posted: mine.filter((each) => each.method === 'POST' && each.path.endsWith('/comments')),
    };
  }
  const artifact = (pr, failed = false) => {
    const dir = tempDir('perfgate-hosted-artifact-');
    writeFileSync(
      join(dir, 'pr.json'),
      JSON.stringify({ format: 'perfgate-pr', version: 1, number: 7, headSha: HEAD, ...pr }),
    );
    writeFileSync(join(dir, 'comparison.json'), JSON.stringify(comparison(failed)));
    return dir;
  };

  test("a run with the default branch's workflow file is trusted; a changed one leaves the status pending, saying why", async () => {
    const trusted = await step(['trust']);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.deepEqual(trusted.outputs, { trusted: 'true' });
    assert.deepEqual(trusted.statuses, []);
    blobs[`${WORKFLOW}@${HEAD}`] = 'c'.repeat(40); // the pull request edited its copy
    const changed = await step(['trust']);
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual(changed.outputs, { trusted: 'false' });
    assert.equal(changed.statuses.length, 1);
    assert.deepEqual(
      [changed.statuses[0].sha, changed.statuses[0].state, changed.statuses[0].context],
      [HEAD, 'pending', 'perfgate'],
    );
    assert.match(
      changed.statuses[0].description,
      /^not trusted: the pull request's \.github\/workflows\/bench-hosted\.yml is not main's/,
    );
    // post refuses it too, whatever the artifact says: no comment, no green status.
    const posted = await step(['post', artifact({})]);
    assert.equal(posted.code, 1);
    assert.match(posted.stderr, /run 42 is not trusted/);
    assert.deepEqual([posted.posted, posted.statuses], [[], []]);
    // A run that names no workflow file of .github/workflows is not trusted either.
    assert.deepEqual((await step(['trust'], { path: '../x.yml' })).outputs, { trusted: 'false' });
  });

  test("a trusted run's artifact gets the comment and the status of its gate", async () => {
    const passed = await step(['post', artifact({})]);
    assert.equal(passed.code, 0, passed.stderr);
    assert.equal(passed.posted.length, 1);
    assert.match(passed.posted[0].body.body, /perfgate benchmark/);
    assert.match(
      passed.posted[0].body.body,
      /⚠️ Inconclusive: the machine was too noisy for `node-http hello c=10` \(spread 15\.3 % per round in `req\/s`\)\./,
    );
    assert.deepEqual(
      passed.statuses.map((each) => [each.sha, each.state, each.context]),
      [[HEAD, 'success', 'perfgate']],
    );
    const failed = await step(['post', artifact({}, true)]);
    assert.equal(failed.code, 0, failed.stderr);
    assert.deepEqual(failed.posted, [], 'the sticky comment is updated in place');
    assert.deepEqual(
      failed.statuses.map((each) => each.state),
      ['failure'],
    );
    assert.match(failed.statuses[0].description, /the gate failed in 1 of 1 comparison/);
  });

  test('an artifact that lies about its commit or pull request is refused, and the status says so', async () => {
    for (const [pr, why] of [
      [{ headSha: 'b'.repeat(40) }, /it names commit b{40}, but the run measured a{40}/],
      [{ number: 8 }, /it names pull request #8, which perf\/gate does not have/],
    ]) {
      const refused = await step(['post', artifact(pr)]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, why);
      assert.deepEqual(refused.posted, []);
      assert.deepEqual(
        refused.statuses.map((each) => [each.state, each.description]),
        [['error', 'the benchmark artifact was refused']],
      );
    }
    // The pull request moved on since the run: this run's commit is not its head any more.
    pull.head.sha = 'd'.repeat(40);
    const stale = await step(['post', artifact({})]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /pull request #7's head is d{40}, not the run's a{40}/);
  });
});

describe("bench-hosted's first step: the pull request's head and its merge base", () => {
  test('approved-commit on a pull_request event fetches the head, records it and finds the merge base; another base is refused', async () => {
    const dir = tempDir('perfgate-hosted-git-');
    const { origin, mergeBase, head } = pullRequestOrigin(dir);
    const checkout = join(dir, 'checkout');
    await run('git', ['clone', '-q', origin, checkout]);
    const prepare = async (base) => {
      const out = join(tempDir('perfgate-hosted-out-'), 'bench');
      mkdirSync(out);
      const event = join(out, '..', 'event.json');
      writeFileSync(
        event,
        JSON.stringify({
          repository: { default_branch: 'main' },
          pull_request: { number: 7, base: { ref: base }, head: { sha: head } },
        }),
      );
      writeFileSync(join(out, '..', 'outputs'), '');
      const result = await runStepScript(
        'approved-commit.mjs',
        ['--out', out],
        {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
          GITHUB_REF: 'refs/pull/7/merge',
          GITHUB_OUTPUT: join(out, '..', 'outputs'),
        },
        checkout,
      );
      return { ...result, outputs: stepOutputs(join(out, '..', 'outputs')), out };
    };
    const result = await prepare('main');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.outputs, { pr: '7', head, base: mergeBase });
    assert.deepEqual(JSON.parse(readFileSync(join(result.out, 'pr.json'), 'utf8')), {
      format: 'perfgate-pr',
      version: 1,
      number: 7,
      headSha: head,
    });
    const other = await prepare('release');
    assert.equal(other.code, 2);
    assert.match(other.stderr, /names a pull request into another branch than main/);
  });
});
