// scripts/pr-comment.mjs against a fake GitHub REST API on loopback: the sticky comment is
// created once and then updated (wherever it is among the pages), the artifact is refused
// when hostile, and nothing from it is followed, run or pasted as markdown.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { MARKER, renderComment } from '../bench/github/comment.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const REPO = 'perf/gate';
const HEAD = 'a'.repeat(40);
const TOKEN = 'test-token';
const BOT = 'github-actions[bot]';

// A fake of the few REST endpoints used, with comments served two per page.
function fakeGitHub() {
  const state = {
    requests: [],
    comments: [],
    nextId: 100,
    artifacts: [],
    pulls: {},
    pageSize: 2,
    foreignNextLink: false,
  };
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const url = new URL(request.url, 'http://127.0.0.1');
    state.requests.push({
      method: request.method,
      path: url.pathname,
      search: url.search,
      auth: request.headers.authorization,
      body: body ? JSON.parse(body) : null,
    });
    const send = (status, json, headers = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
    const base = `/repos/${REPO}`;
    const route = (pattern) => url.pathname.match(new RegExp(`^${base}${pattern}$`));
    let match = route('/pulls/(\\d+)');
    if (match) {
      const pull = state.pulls[match[1]];
      return pull ? send(200, pull) : send(404, { message: 'Not Found' });
    }
    match = route('/issues/(\\d+)/comments');
    if (match) {
      if (request.method === 'POST') {
        const comment = { id: state.nextId++, user: { login: BOT }, body: JSON.parse(body).body };
        state.comments.push(comment);
        return send(201, comment);
      }
      const page = Number(url.searchParams.get('page') ?? 1);
      const items = state.comments.slice((page - 1) * state.pageSize, page * state.pageSize);
      const host = state.foreignNextLink ? 'http://127.0.0.2:9' : `http://127.0.0.1:${server.address().port}`;
      const more = page * state.pageSize < state.comments.length;
      return send(
        200,
        items,
        more ? { link: `<${host}${url.pathname}?per_page=100&page=${page + 1}>; rel="next"` } : {},
      );
    }
    match = route('/issues/comments/(\\d+)');
    if (match && request.method === 'PATCH') {
      const comment = state.comments.find((item) => item.id === Number(match[1]));
      comment.body = JSON.parse(body).body;
      return send(200, comment);
    }
    if (url.pathname.match(new RegExp(`^${base}/issues/\\d+/labels/`)) && request.method === 'DELETE')
      return send(200, []);
    if (url.pathname.match(new RegExp(`^${base}/actions/runs/\\d+/artifacts$`)))
      return send(200, { total_count: state.artifacts.length, artifacts: state.artifacts });
    return send(404, { message: 'Not Found' });
  });
  return { server, state };
}

const comparison = (overrides = {}) => ({
  format: 'perfgate-comparison',
  version: 1,
  sides: { base: { description: 'main~1 (259e3843be90)' }, head: { description: 'main (fa25bd377d5b)' } },
  settings: {},
  benchmarks: [
    {
      id: 'node-http hello c=10',
      status: 'ok',
      rounds: 3,
      verdicts: {
        'req/s': { verdict: 'regression', ci: [-0.3, -0.2] },
        'p99 latency': { verdict: 'no change', ci: [-0.05, 0.04] },
      },
      samples: {
        base: [
          { requestsPerSecond: 1000, p99LatencyMs: 2 },
          { requestsPerSecond: 1100, p99LatencyMs: 2 },
        ],
        head: [
          { requestsPerSecond: 800, p99LatencyMs: 2 },
          { requestsPerSecond: 780, p99LatencyMs: 2 },
        ],
      },
    },
    { id: 'fastify hello c=10', status: 'skipped', reason: 'not installed' },
  ],
  gate: { metric: 'req/s', failThreshold: 0.1, failed: true, regressions: ['node-http hello c=10'] },
  ...overrides,
});

function artifactDir(files) {
  const dir = tempDir('perfgate-artifact-');
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

const prRecord = (overrides = {}) => ({ format: 'perfgate-pr', version: 1, number: 7, headSha: HEAD, ...overrides });

describe('scripts/pr-comment.mjs', () => {
  const { server, state } = fakeGitHub();
  let apiUrl;
  let work;
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    apiUrl = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => server.close());
  beforeEach(() => {
    Object.assign(state, { requests: [], comments: [], artifacts: [], foreignNextLink: false });
    state.pulls = { 7: { number: 7, head: { sha: HEAD, ref: 'feature', repo: { full_name: REPO } } } };
    work = tempDir();
  });

  function workflowRunEvent(run = {}) {
    const file = join(work, 'event.json');
    // A bench-pr run dispatched on main by bench-request: its title names the pull request and commit.
    writeFileSync(
      file,
      JSON.stringify({
        action: 'completed',
        repository: { default_branch: 'main' },
        workflow_run: {
          id: 42,
          name: 'bench-pr',
          event: 'workflow_dispatch',
          head_sha: 'e'.repeat(40),
          head_branch: 'main',
          display_title: `bench-pr #7 at ${HEAD}`,
          pull_requests: [],
          ...run,
        },
      }),
    );
    return file;
  }

  async function script(args, { event = workflowRunEvent(), env = {} } = {}) {
    const output = join(work, 'output');
    const summary = join(work, 'summary');
    writeFileSync(output, '');
    const environment = {
      PATH: process.env.PATH,
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: REPO,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: apiUrl,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      ...env,
    };
    const run = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'scripts/pr-comment.mjs'), ...args], {
      env: environment,
      cwd: work,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    return { ...run, outputs: readFileSync(output, 'utf8') };
  }

  const writes = () => state.requests.filter((request) => request.method !== 'GET');

  test('find reports no artifact, an artifact, and refuses an oversized one before download', async () => {
    assert.match((await script(['find'])).outputs, /^found=false$/m);
    state.artifacts = [
      { id: 5, name: 'other', size_in_bytes: 10 },
      { id: 6, name: 'perfgate-bench', size_in_bytes: 2000, expired: false },
    ];
    const found = await script(['find']);
    assert.match(found.outputs, /^found=true\nartifact-id=6$/m);
    assert.equal(state.requests.at(-1).path, `/repos/${REPO}/actions/runs/42/artifacts`);
    assert.equal(state.requests.at(-1).auth, `Bearer ${TOKEN}`);
    state.artifacts = [{ id: 6, name: 'perfgate-bench', size_in_bytes: 50 * 1024 * 1024 }];
    const big = await script(['find']);
    assert.equal(big.code, 1);
    assert.match(big.stderr, /refused the benchmark artifact: it is 52428800 bytes zipped/);
    assert.equal(big.outputs, '');
  });

  test('post creates the comment when the pull request has none of ours', async () => {
    state.comments = [
      { id: 1, user: { login: 'someone' }, body: `${MARKER} a user quoting our marker` },
      { id: 2, user: { login: BOT }, body: 'another bot comment' },
    ];
    const run = await script(['post', artifactDir({ 'pr.json': prRecord(), 'comparison.json': comparison() })]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /created the benchmark comment 100 on pull request #7/);
    const [created] = writes();
    assert.equal(created.method, 'POST');
    assert.equal(created.path, `/repos/${REPO}/issues/7/comments`);
    const { body } = created.body;
    assert.ok(body.startsWith(MARKER));
    assert.match(
      body,
      /🔴 1 regression; 1 certainly beyond the 10 % gate \(`node-http hello c=10`\): the check fails\./,
    );
    assert.match(
      body,
      /\| `node-http hello c=10` \| req\/s \| 1,050 req\/s \| 790 req\/s \| -24\.8 % \| -30\.0 % … -20\.0 % \| 🔴 regression \|/,
    );
    assert.match(body, /\| `fastify hello c=10` \| \| \| \| \| \| skipped: `not installed` \|/);
    assert.match(body, /\[this run\]\(https:\/\/github\.example\/perf\/gate\/actions\/runs\/42\)/);
    assert.equal(state.comments[0].body, `${MARKER} a user quoting our marker`);
  });

  test('the comment shows the change a verdict carries (the paired estimate), as the report does', () => {
    const paired = comparison();
    paired.benchmarks[0].verdicts['req/s'].change = -0.256;
    const body = renderComment(
      { pr: prRecord(), comparisons: [{ name: 'comparison.json', comparison: paired }] },
      { runUrl: 'https://github.example/run', workflow: 'bench-pr', currentHeadSha: HEAD },
    );
    assert.match(
      body,
      /\| `node-http hello c=10` \| req\/s \| 1,050 req\/s \| 790 req\/s \| -25\.6 % \| -30\.0 % … -20\.0 % \| 🔴 regression \|/,
    );
  });

  test('a differential profile shows collapsed, its names as code spans', () => {
    const profiled = comparison();
    const row = {
      functionName: 'hashBody<img>',
      path: 'src/app.js',
      line: 12,
      package: '(app)',
      base: 0,
      head: 41.5,
      change: 41.5,
    };
    profiled.benchmarks[0].profile = { grew: [row], shrank: [], totals: { base: 20, head: 61.5 } };
    const body = renderComment(
      { pr: prRecord(), comparisons: [{ name: 'comparison.json', comparison: profiled }] },
      { runUrl: 'https://github.example/run', workflow: 'bench-pr', currentHeadSha: HEAD },
    );
    assert.match(body, /<details><summary>Where the CPU time went: `node-http hello c=10`<\/summary>/);
    assert.match(body, /\| `hashBody\?img\?` \| `src\/app\.js:12` \| `\(app\)` \| 0\.00 \| 41\.5 \| \+41\.5 \|/);
  });

  test('post updates our comment in place, found on a later page', async () => {
    state.comments = [
      { id: 1, user: { login: 'a' }, body: 'x' },
      { id: 2, user: { login: 'b' }, body: 'y' },
      { id: 3, user: { login: 'c' }, body: 'z' },
      { id: 4, user: { login: 'd' }, body: 'w' },
      { id: 5, user: { login: BOT }, body: `${MARKER}\nold report` },
    ];
    const run = await script(['post', artifactDir({ 'pr.json': prRecord(), 'comparison.json': comparison() })]);
    assert.equal(run.code, 0, run.stderr);
    const pages = state.requests.filter(
      (request) => request.path.endsWith('/issues/7/comments') && request.method === 'GET',
    );
    assert.equal(pages.length, 3);
    assert.deepEqual(
      writes().map((request) => `${request.method} ${request.path}`),
      [`PATCH /repos/${REPO}/issues/comments/5`],
    );
    assert.match(state.comments[4].body, /node-http hello c=10/);
    assert.equal(state.comments.length, 5);
    assert.ok(state.requests.every((request) => request.auth === `Bearer ${TOKEN}`));
  });

  test('a pagination link to another host is refused: the token stays with the API', async () => {
    state.comments = [
      { id: 1, user: { login: 'a' }, body: 'x' },
      { id: 2, user: { login: 'b' }, body: 'y' },
      { id: 3, user: { login: 'c' }, body: 'z' },
    ];
    state.foreignNextLink = true;
    const run = await script(['post', artifactDir({ 'pr.json': prRecord(), 'comparison.json': comparison() })]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /a link to another host \(http:\/\/127\.0\.0\.2:9 is not http:\/\/127\.0\.0\.1:\d+\)/);
    assert.deepEqual(writes(), []);
  });

  test('markdown, HTML and mentions in names are shown literally, never rendered', async () => {
    const hostile = comparison();
    const name = '<img src=x onerror=alert(1)>`| @admin [x](http://evil.example) **b** \n## h';
    hostile.benchmarks[0].id = name;
    hostile.sides.head.description = '</details><script>x</script>';
    hostile.gate.regressions = [name];
    const run = await script([
      'post',
      artifactDir({
        'pr.json': prRecord(),
        'comparison.json': hostile,
        'comparison.md': '<script>alert(1)</script> @everyone',
      }),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const { body } = writes()[0].body;
    for (const forbidden of ['<img', '<script', '</details', '@everyone', '\n## h', '`|'])
      assert.ok(!body.includes(forbidden), forbidden);
    // Every untrusted text is one code span, where an @ or a link is plain text; outside
    // them the only HTML is ours.
    const outside = body.replace(/`[^`\n]*`/g, '');
    assert.doesNotMatch(outside, /@admin|\]\(http:\/\/evil/);
    assert.deepEqual(outside.match(/<[^>]*>/g), [MARKER, '<sub>', '</sub>']);
    assert.match(
      body,
      /`\?img src=x onerror=alert\(1\)\?\?\? @admin \[x\]\(http:\/\/evil\.example\) \?\?b\?\? \?## h`/,
    );
    const tableRows = body.split('\n').filter((line) => line.startsWith('| `'));
    assert.equal(tableRows.length, 3);
    for (const row of tableRows) assert.equal(row.split('|').length, 9, row);
  });

  const hostileArtifacts = [
    [
      'a file over the size limit',
      () => ({ 'pr.json': prRecord(), 'comparison.json': `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}` }),
      /comparison\.json is \d+ bytes, more than the limit/,
    ],
    [
      'invalid JSON',
      () => ({ 'pr.json': prRecord(), 'comparison.json': '{"format": ' }),
      /comparison\.json is not JSON/,
    ],
    [
      'a schema-invalid comparison',
      () => ({
        'pr.json': prRecord(),
        'comparison.json': comparison({ gate: { failed: 'yes', failThreshold: 0.1, regressions: [] } }),
      }),
      /comparison\.json is not a valid comparison file: \/gate\/failed must be boolean/,
    ],
    [
      'a verdict the engine never gives',
      () => {
        const odd = comparison();
        odd.benchmarks[0].verdicts['req/s'].verdict = '<b>fine</b>';
        return { 'pr.json': prRecord(), 'comparison.json': odd };
      },
      /not a valid comparison file: \/benchmarks\/0\/verdicts\/req~1s\/verdict must be equal to one of the allowed values/,
    ],
    [
      'a change that is not a number',
      () => {
        const odd = comparison();
        odd.benchmarks[0].verdicts['req/s'].change = '<b>-5 %</b>';
        return { 'pr.json': prRecord(), 'comparison.json': odd };
      },
      /not a valid comparison file: \/benchmarks\/0\/verdicts\/req~1s\/change must be null/,
    ],
    [
      'a profile row with a name too long',
      () => {
        const odd = comparison();
        odd.benchmarks[0].profile = {
          grew: [
            { functionName: 'x'.repeat(201), path: 'a.js', line: 1, package: '(app)', base: 0, head: 1, change: 1 },
          ],
          shrank: [],
          totals: { base: 0, head: 1 },
        };
        return { 'pr.json': prRecord(), 'comparison.json': odd };
      },
      /not a valid comparison file: \/benchmarks\/0\/profile/,
    ],
    ['no pr.json', () => ({ 'comparison.json': comparison() }), /it has no pr\.json/],
    ['extra fields in pr.json', () => ({ 'pr.json': prRecord({ comment: 'hi' }) }), /pr\.json is not a valid pr file/],
    [
      "another pull request than the run's",
      () => ({ 'pr.json': prRecord({ number: 8 }) }),
      /it names pull request #8, but the run benchmarked #7/,
    ],
    [
      "another commit than the run's",
      () => ({ 'pr.json': prRecord({ headSha: 'b'.repeat(40) }) }),
      /it names commit b{40}, but the run measured a{40}/,
    ],
  ];
  for (const [what, files, message] of hostileArtifacts) {
    test(`refuses an artifact with ${what}, posting nothing`, async () => {
      const run = await script(['post', artifactDir(files())]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, message);
      assert.match(run.stderr, /Nothing was posted/);
      assert.deepEqual(writes(), []);
    });
  }

  test('only a run dispatched on the default branch for an existing pull request gets a comment', async () => {
    for (const [run, message] of [
      [
        // A pull_request run is the hosted mode's, trusted only as test/github-hosted.e2e.test.js shows.
        { event: 'pull_request', head_branch: 'feature' },
        /run 42 is not trusted: the run names no workflow file of \.github\/workflows/,
      ],
      [{ head_branch: 'feature' }, /\(workflow_dispatch on feature\) is not a benchmark dispatched on main/],
      [{ display_title: 'some other run' }, /run "some other run" .* is not a benchmark dispatched on main/],
    ]) {
      const refused = await script(['post', artifactDir({ 'pr.json': prRecord() })], { event: workflowRunEvent(run) });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, message);
    }
    const missing = await script(['post', artifactDir({ 'pr.json': prRecord({ number: 10 }) })], {
      event: workflowRunEvent({ display_title: `bench-pr #10 at ${HEAD}` }),
    });
    assert.match(missing.stderr, /it names pull request #10, which perf\/gate does not have/);
    assert.deepEqual(writes(), []);
    const accepted = await script(['post', artifactDir({ 'pr.json': prRecord() })]);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(writes()[0].body.body, /The run produced no comparison/);
  });

  test('links and executables in the artifact are never followed or run', async () => {
    const secret = join(work, 'secret.json');
    writeFileSync(
      secret,
      JSON.stringify(comparison({ sides: { base: { description: 'SECRET-CONTENT' }, head: { description: 'x' } } })),
    );
    const linked = artifactDir({ 'pr.json': prRecord() });
    symlinkSync(secret, join(linked, 'comparison.json'));
    const run = await script(['post', linked]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /comparison\.json is not a plain file \(links, folders and devices are refused\)/);
    assert.ok(!JSON.stringify(state.requests).includes('SECRET-CONTENT'));

    const proof = join(work, 'executed');
    const scripted = artifactDir({
      'pr.json': prRecord(),
      'comparison.json': comparison(),
      'postinstall.sh': `#!/bin/sh\ntouch ${proof}\n`,
      'package.json': '{"scripts":{"postinstall":"sh postinstall.sh"}}',
    });
    const ok = await script(['post', scripted]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(existsSync(proof), false);

    const nested = artifactDir({ 'pr.json': prRecord() });
    mkdirSync(join(nested, 'comparison.json'));
    assert.match((await script(['post', nested])).stderr, /comparison\.json is not a plain file/);
  });

  test('bad command lines and missing context are input errors (exit 2)', async () => {
    assert.equal((await script(['publish'])).code, 2);
    assert.match((await script(['post'])).stderr, /post needs the artifact directory/);
    const noToken = await script(['find'], { env: { GITHUB_TOKEN: '' } });
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /GITHUB_TOKEN is not set/);
  });
});
