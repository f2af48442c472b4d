// The hardening rules of .github/workflows (docs/github-actions.md) and the names the workflows
// share with the code, checked on the parsed YAML, with or without the linters installed.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { YAML } from 'zx';
import { ARTIFACT_NAME } from '../bench/github/artifact.js';
import { INSIDER_ASSOCIATIONS, UPDATE_BOTS } from '../bench/github/trusted-trigger.js';
import { SUITES } from '../bench/config/suites.js';
import { SUITE_NAMES, TOOLS, TREND_SUITES } from '../bench/results/benchmark-action.js';
import { TREND_FILES } from '../bench/comparison/trend/write.js';
import { hostedSuiteName } from '../site/shared/runner.js';
import { syntheticData, syntheticSeries, syntheticSha } from '../bench/history/detect/synthetic.js';
import { serializeBenchmarkData } from '../bench/history/format.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { git } from './helpers/servers-repo.js';
import { siteRepository } from './helpers/workflow-fixture.js';

// Asynchronous, so that the fake API in this process can answer the step's requests.
const spawnAsync = (command, args, options) =>
  new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });

const DIR = join(PROJECT_ROOT, '.github/workflows');
const files = readdirSync(DIR).filter((name) => name.endsWith('.yml'));
const text = Object.fromEntries(files.map((name) => [name, readFileSync(join(DIR, name), 'utf8')]));
const workflows = Object.fromEntries(files.map((name) => [name, YAML.parse(text[name])]));
const jobsOf = (name) => Object.entries(workflows[name].jobs);
const allJobs = () =>
  files.flatMap((name) =>
    jobsOf(name).map(([id, job]) => [`${name}:${id}`, job, job.permissions ?? workflows[name].permissions]),
  );
const allSteps = () => allJobs().flatMap(([where, job]) => job.steps.map((step) => [where, step]));
const usesOf = (prefix) => allSteps().filter(([, step]) => step.uses?.startsWith(prefix));

describe('hardening', () => {
  test('the ten workflows are there', () => {
    assert.deepEqual(files.sort(), [
      'bench-comment.yml',
      'bench-hosted-main.yml',
      'bench-hosted-report.yml',
      'bench-hosted.yml',
      'bench-main.yml',
      'bench-pr.yml',
      'bench-request.yml',
      'ci.yml',
      'upgrade-gate.yml',
      'upgrade-request.yml',
    ]);
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
    for (const [where, step] of usesOf('actions/checkout@'))
      assert.equal(step.with?.['persist-credentials'], false, where);
    for (const [where, job] of allJobs())
      assert.ok(Number.isInteger(job['timeout-minutes']), `${where} has no timeout-minutes`);
  });

  test('no expression inside a run: script (context goes through env:)', () => {
    for (const [where, step] of allSteps())
      if (step.run) assert.ok(!step.run.includes('${{'), `${where}: "${step.name}" expands an expression in run:`);
  });

  test('no pull-request definition reaches a self-hosted runner: those jobs run only in workflows of the default branch', () => {
    const selfHosted = allJobs().filter(([, job]) => [job['runs-on']].flat().includes('self-hosted'));
    for (const [where, job] of selfHosted) {
      const triggers = Object.keys(workflows[where.split(':')[0]].on);
      assert.deepEqual(
        triggers.filter((trigger) => !['push', 'schedule', 'workflow_dispatch'].includes(trigger)),
        [],
        `${where} has a trigger that runs another definition`,
      );
      if (triggers.includes('push')) assert.deepEqual(workflows[where.split(':')[0]].on.push.branches, ['main'], where);
      // A dispatch names a ref: the job refuses any other than the default branch.
      assert.equal(job.if, "github.ref == 'refs/heads/main'", where);
    }
  });

  test('privileged triggers run on GitHub-hosted runners and check out only the default branch', () => {
    for (const name of files.filter((each) =>
      ['pull_request_target', 'issue_comment', 'workflow_run'].some((trigger) => trigger in workflows[each].on),
    )) {
      for (const [id, job] of jobsOf(name)) {
        assert.ok(!['self-hosted'].includes([job['runs-on']].flat()[0]), `${name}:${id} runs on a self-hosted runner`);
        for (const step of job.steps.filter((each) => each.uses?.startsWith('actions/checkout@'))) {
          assert.ok(
            [undefined, '${{ github.event.repository.default_branch }}'].includes(step.with?.ref),
            `${name}:${id} checks out ${step.with?.ref}`,
          );
        }
      }
    }
    for (const name of files)
      assert.ok(
        !(
          'pull_request' in workflows[name].on &&
          jobsOf(name).some(([, job]) => JSON.stringify(job['runs-on']).includes('self-hosted'))
        ),
        name,
      );
  });

  test('the request jobs install nothing: checkout, Node and the script, which runs seconds after the event', () => {
    for (const [name, id] of [
      ['bench-request.yml', 'request'],
      ['upgrade-request.yml', 'decide'],
    ]) {
      const steps = workflows[name].jobs[id].steps;
      assert.deepEqual(
        steps.map((step) => step.uses?.split('@')[0] ?? step.run.split(' ').slice(0, 2).join(' ')),
        [
          'actions/checkout',
          'actions/setup-node',
          ...steps.slice(2).map(() => `node scripts/${name.replace('.yml', '.mjs')}`),
        ],
        `${name}: ${id}`,
      );
    }
  });

  test("nobody's comment cancels or replaces another's request, and only a push's run is cancelled, by the same pull request's next push", () => {
    const privileged = allJobs().filter(([where]) =>
      ['issue_comment', 'pull_request_target'].some((trigger) => trigger in workflows[where.split(':')[0]].on),
    );
    assert.deepEqual(privileged.map(([where]) => where).sort(), [
      'bench-request.yml:request',
      'upgrade-request.yml:decide',
    ]);
    const request = workflows['bench-request.yml'].jobs.request.concurrency;
    assert.match(request.group, /format\('bench-request-push-\{0\}', github\.event\.pull_request\.number\)/);
    assert.match(
      request.group,
      /format\('bench-request-\{0\}-\{1\}', github\.event\.issue\.number \|\| github\.event\.pull_request\.number, github\.event\.sender\.login\)/,
      'a request is grouped by pull request and requester',
    );
    assert.equal(
      request['cancel-in-progress'],
      "${{ github.event_name == 'pull_request_target' && github.event.action != 'labeled' }}",
    );
    assert.deepEqual(workflows['upgrade-request.yml'].jobs.decide.concurrency, {
      group: 'upgrade-request-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
    // Who is an insider or an update bot is decided once, in bench/github/trusted-trigger.js.
    for (const name of files)
      for (const list of [...INSIDER_ASSOCIATIONS, ...UPDATE_BOTS])
        assert.ok(!text[name].includes(`"${list}"`), `${name} repeats ${list}`);
  });

  test('publishing runs only from the default branch', () => {
    const publishers = allJobs().filter(([, , permissions]) => permissions.contents === 'write');
    assert.deepEqual(
      publishers.map(([where]) => where),
      ['bench-hosted-main.yml:publish', 'bench-main.yml:publish'],
    );
    for (const [where, job] of publishers) assert.match(job.if, /github\.ref == 'refs\/heads\/main'/, where);
  });

  test('least privilege: no default permissions, and only the publishing job may write contents', () => {
    for (const name of files)
      assert.ok(workflows[name].permissions !== undefined, `${name} has no top-level permissions`);
    const writers = allJobs().filter(([, , permissions]) => Object.values(permissions).includes('write'));
    assert.deepEqual(
      writers.map(([where, , permissions]) => [where, permissions]),
      [
        ['bench-comment.yml:comment', { actions: 'read', contents: 'read', 'pull-requests': 'write' }],
        ['bench-hosted-main.yml:publish', { contents: 'write' }],
        [
          'bench-hosted-report.yml:report',
          { actions: 'read', contents: 'read', 'pull-requests': 'write', statuses: 'write' },
        ],
        ['bench-main.yml:publish', { contents: 'write' }],
        ['bench-request.yml:request', { actions: 'write', contents: 'read', 'pull-requests': 'write' }],
        ['upgrade-request.yml:decide', { actions: 'write', contents: 'read' }],
      ],
    );
    for (const [where, job] of allJobs().filter(([, each]) => [each['runs-on']].flat().includes('self-hosted'))) {
      assert.deepEqual(
        job.permissions,
        { contents: 'read' },
        `${where} runs on a self-hosted runner with more than contents: read`,
      );
    }
  });
});

describe('names shared with the code', () => {
  test("bench-main and bench-hosted-main shard exactly the frameworks suite's variants", () => {
    for (const name of ['bench-main.yml', 'bench-hosted-main.yml']) {
      assert.deepEqual(workflows[name].jobs.bench.strategy.matrix.variant, SUITES.frameworks.variants, name);
      assert.match(
        workflows[name].jobs.bench.steps.find((step) => step.run?.includes('npm run bench')).run,
        /--suite frameworks --variant "\$VARIANT"/,
      );
    }
  });

  test('the trend is published under the suite names and tools of bench/results/benchmark-action.js and bench/comparison/trend/', () => {
    const publishedBy = (name) =>
      usesOf('benchmark-action/github-action-benchmark@')
        .filter(([where]) => where.startsWith(`${name}:`))
        .map(([, step]) => step.with);
    const lines = (names, trendNames) => [
      [names.bigger, TOOLS.bigger, 'benchmark-action-bigger.json'],
      [names.smaller, TOOLS.smaller, 'benchmark-action-smaller.json'],
      [trendNames.bigger, TOOLS.bigger, TREND_FILES.bigger],
      [trendNames.smaller, TOOLS.smaller, TREND_FILES.smaller],
    ];
    const what = (inputs) => [inputs.name, inputs.tool, inputs['output-file-path'].split('/').at(-1)];
    const hosted = (names) => ({ bigger: hostedSuiteName(names.bigger), smaller: hostedSuiteName(names.smaller) });
    assert.deepEqual(publishedBy('bench-main.yml').map(what), lines(SUITE_NAMES, TREND_SUITES));
    // A hosted runner's lines go to groups of their own, labelled as the site labels them.
    assert.deepEqual(publishedBy('bench-hosted-main.yml').map(what), lines(hosted(SUITE_NAMES), hosted(TREND_SUITES)));
    const alerting = [...publishedBy('bench-main.yml'), ...publishedBy('bench-hosted-main.yml').slice(2)];
    for (const inputs of alerting) {
      // Alerts only for a commit new to the trend (scripts/pages-branch.mjs), not a nightly re-run.
      assert.deepEqual(
        [
          inputs['auto-push'],
          inputs['gh-pages-branch'],
          inputs['benchmark-data-dir-path'],
          inputs['comment-on-alert'],
          inputs['fail-on-alert'],
        ],
        [true, 'gh-pages', 'dev/bench', '${{ steps.pages.outputs.alert }}', '${{ steps.pages.outputs.alert }}'],
      );
      assert.match(inputs['alert-threshold'], /^\d+%$/);
    }
    // A hosted runner's absolute figures never alert: they move with each virtual machine.
    for (const inputs of publishedBy('bench-hosted-main.yml').slice(0, 2))
      assert.deepEqual([inputs['comment-on-alert'], inputs['fail-on-alert']], [false, false]);
  });

  test('bench-comment follows the dispatched workflows that upload the artifact, each named by its pull request and commit', () => {
    const uploaders = files.filter((name) =>
      usesOf('actions/upload-artifact@').some(
        ([where, step]) => where.startsWith(`${name}:`) && step.with.name === ARTIFACT_NAME,
      ),
    );
    assert.deepEqual(uploaders.sort(), ['bench-hosted.yml', 'bench-pr.yml', 'upgrade-gate.yml']);
    // The hosted mode's pull_request runs go to bench-hosted-report, the dispatched ones to bench-comment.
    assert.deepEqual(workflows['bench-hosted-report.yml'].on.workflow_run.workflows, [
      workflows['bench-hosted.yml'].name,
    ]);
    assert.equal(
      workflows['bench-hosted-report.yml'].jobs.report.if,
      "github.event.workflow_run.event == 'pull_request'",
    );
    assert.equal(
      workflows['bench-comment.yml'].jobs.comment.if,
      "github.event.workflow_run.event == 'workflow_dispatch'",
    );
    uploaders.splice(uploaders.indexOf('bench-hosted.yml'), 1);
    const comment = workflows['bench-comment.yml'];
    assert.deepEqual(
      comment.on.workflow_run.workflows,
      uploaders.map((name) => workflows[name].name),
    );
    const [[, download]] = usesOf('actions/download-artifact@').filter(([where]) =>
      where.startsWith('bench-comment.yml'),
    );
    assert.equal(download.with.name, ARTIFACT_NAME);
    assert.equal(download.with['run-id'], '${{ github.event.workflow_run.id }}');
    assert.match(download.with.path, /^\$\{\{ runner\.temp \}\}\//);
    for (const name of uploaders) {
      assert.equal(
        workflows[name]['run-name'],
        `${workflows[name].name} #\${{ inputs.pr }} at \${{ inputs.sha }}`,
        name,
      );
      assert.deepEqual(Object.keys(workflows[name].on), ['workflow_dispatch'], name);
    }
    assert.deepEqual(
      workflows['bench-request.yml'].jobs.request.steps.filter((step) => step.run).map((step) => step.run),
      [
        'node scripts/bench-request.mjs --workflow bench-pr.yml --automatic',
        'node scripts/bench-request.mjs --workflow upgrade-gate.yml --command /perfgate-upgrade --label run-upgrade-gate --lockfile-only',
      ],
    );
    assert.match(workflows['upgrade-request.yml'].jobs.decide.steps.at(-1).run, /--workflow upgrade-gate\.yml$/);
    assert.equal(comment.jobs.comment.if, "github.event.workflow_run.event == 'workflow_dispatch'");
    assert.ok(
      !usesOf('actions/checkout@').some(([where, step]) => where.startsWith('bench-comment.yml') && step.with?.ref),
      'bench-comment checks out only the default branch',
    );
  });
});

describe("bench-main's publishing steps on a repository without gh-pages (a first run)", () => {
  const steps = workflows['bench-main.yml'].jobs.publish.steps;
  const stepNamed = (name) => steps.find((each) => each.name === name);
  let github;
  let comments;
  before(async () => {
    comments = [];
    github = await startFakeGitHub([
      [
        'POST',
        /^\/repos\/owner\/pages\/commits\/([0-9a-f]{40})\/comments$/,
        (match) => {
          comments.push(match[1]);
          return [201, { id: comments.length }];
        },
      ],
    ]);
  });
  after(() => github.close());

  test('gh-pages is created, the action can switch to it, and every later step publishes; a re-run of the push run alerts again, the nightly does not', async () => {
    const root = tempDir();
    const { checkout, remote, sha } = siteRepository(root, ['main'], { 'site/lib/app.js': 'export {};' });
    git(checkout, 'remote', 'add', 'origin', remote);
    const outputs = join(root, 'outputs');
    const env = {
      ...process.env,
      GH_TOKEN: 'token',
      GITHUB_TOKEN: 'token',
      PAGES: join(root, 'pages'),
      GITHUB_SERVER_URL: `file://${root}`,
      GITHUB_REPOSITORY: 'owner/pages',
      GITHUB_SHA: sha,
      GITHUB_API_URL: github.url,
      GITHUB_OUTPUT: outputs,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_RUN_ATTEMPT: '1',
    };
    // Node steps run the project's scripts; git steps run in the measured checkout, as in the workspace.
    const runStep = (name, cwd) => spawnAsync('bash', ['-eo', 'pipefail', '-c', stepNamed(name).run], { cwd, env });
    // What the action does first (git fetch origin gh-pages:gh-pages, then git switch gh-pages).
    const actionSwitch = () =>
      spawnSync('bash', ['-c', 'git fetch -q origin gh-pages:gh-pages && git switch -q gh-pages && git switch -q -'], {
        cwd: checkout,
        env,
        encoding: 'utf8',
      });
    assert.notEqual(actionSwitch().status, 0, 'without gh-pages the action fails');

    writeFileSync(outputs, '');
    const prepared = await runStep('Create gh-pages if missing; is this commit new to the trend?', PROJECT_ROOT);
    assert.equal(prepared.code, 0, prepared.stderr);
    assert.equal(readFileSync(outputs, 'utf8'), 'created=true\nalert=true\n');
    assert.equal(actionSwitch().status, 0, 'with gh-pages the action can switch to it');

    // The action's push of data.js (stood in for by a history with a 10 % step at run 150).
    const seed = join(root, 'seed');
    git(root, 'clone', '-q', '--branch', 'gh-pages', remote, seed);
    const data = syntheticData({
      'perfgate throughput': {
        tool: 'customBiggerIsBetter',
        benches: {
          'express json c=100 - req/s': syntheticSeries({
            length: 200,
            cv: 0.03,
            steps: [{ at: 150, factor: 0.9 }],
            seed: 3,
          }),
        },
      },
    });
    data.entries['perfgate throughput'].at(-1).commit.id = sha;
    data.entries['perfgate latency'] = [
      {
        ...data.entries['perfgate throughput'].at(-1),
        tool: 'customSmallerIsBetter',
        benches: [{ name: 'x - p99 latency', value: 1, unit: 'ms' }],
      },
    ];
    mkdirSync(join(seed, 'dev/bench'), { recursive: true });
    writeFileSync(join(seed, 'dev/bench/data.js'), serializeBenchmarkData(data));
    git(seed, 'add', '.');
    git(seed, 'commit', '-qm', 'data');
    git(seed, 'push', '-q', 'origin', 'gh-pages');

    for (const [name, cwd] of [
      ['Check out gh-pages', checkout],
      ['Report new change points', PROJECT_ROOT],
      ['Deploy the trend site next to the data', checkout],
    ]) {
      assert.equal(stepNamed(name).if, '${{ !cancelled() }}', `${name} must run after a failed alert`);
      const result = await runStep(name, cwd);
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
    }
    assert.deepEqual(git(root, '--git-dir', remote, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n'), [
      '.nojekyll',
      'dev/bench/change-points.json',
      'dev/bench/data.js',
      'index.html',
      'lib/app.js',
    ]);
    assert.deepEqual(comments, [syntheticSha(150)], 'the change point is reported on its commit');
    assert.match(
      git(root, '--git-dir', remote, 'log', '-1', '--format=%an %s', 'gh-pages'),
      /^github-actions\[bot\] trend site and reported change points from [0-9a-f]{40}$/,
    );

    // A re-run of the push run (its first attempt published the commit) alerts again: a red check stays red.
    writeFileSync(outputs, '');
    env.GITHUB_RUN_ATTEMPT = '2';
    const rerun = await runStep('Create gh-pages if missing; is this commit new to the trend?', PROJECT_ROOT);
    assert.equal(rerun.code, 0);
    assert.equal(readFileSync(outputs, 'utf8'), 'created=false\nalert=true\n');
    assert.match(rerun.stdout, /this re-run alerts again, so that the check stays red until the regression is gone/);

    // The nightly run on the same commit: no alert, no second report, nothing new to deploy.
    writeFileSync(outputs, '');
    Object.assign(env, { GITHUB_EVENT_NAME: 'schedule', GITHUB_RUN_ATTEMPT: '1' });
    assert.equal((await runStep('Create gh-pages if missing; is this commit new to the trend?', PROJECT_ROOT)).code, 0);
    assert.equal(readFileSync(outputs, 'utf8'), 'created=false\nalert=false\n');
    rmSync(join(root, 'pages'), { recursive: true });
    for (const [name, cwd] of [
      ['Check out gh-pages', checkout],
      ['Report new change points', PROJECT_ROOT],
      ['Deploy the trend site next to the data', checkout],
    ]) {
      assert.equal((await runStep(name, cwd)).code, 0, name);
    }
    assert.deepEqual(comments, [syntheticSha(150)]);
    assert.equal(git(root, '--git-dir', remote, 'rev-list', '--count', 'gh-pages'), '3');
  });
});
