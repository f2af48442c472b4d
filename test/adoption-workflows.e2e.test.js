// The workflow templates (templates/) and composite actions (actions/) that a user's repository
// uses: the hardening rules of this repository's own workflows, checked on the parsed YAML, and
// actionlint + zizmor run over them laid out as in a user's repository (the templates in
// .github/workflows/, the actions in node_modules/perfgate/actions/).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { YAML } from 'zx';
import {
  adopterLayout,
  isInstalled,
  lintCommands,
  PERSONAS,
  workflowLinters,
} from '../bench/github/workflow-linters.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const read = (path) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const templates = readdirSync(join(PROJECT_ROOT, 'templates')).filter((name) => name.endsWith('.yml'));
const actions = readdirSync(join(PROJECT_ROOT, 'actions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sources = {
  ...Object.fromEntries(templates.map((name) => [`templates/${name}`, read(`templates/${name}`)])),
  ...Object.fromEntries(actions.map((name) => [`actions/${name}`, read(`actions/${name}/action.yml`)])),
};
const workflows = Object.fromEntries(templates.map((name) => [name, YAML.parse(sources[`templates/${name}`])]));
const jobs = () =>
  Object.entries(workflows).flatMap(([name, workflow]) =>
    Object.entries(workflow.jobs).map(([id, job]) => [`${name}:${id}`, job, workflow]),
  );
const steps = () => [
  ...jobs().flatMap(([where, job]) => job.steps.map((step) => [where, step])),
  ...actions
    .map((name) => [`actions/${name}`, YAML.parse(sources[`actions/${name}`])])
    .flatMap(([where, action]) => action.runs.steps.map((step) => [where, step])),
];
const selfHosted = (job) => [job['runs-on']].flat().includes('self-hosted');

describe('templates and actions', () => {
  test('there are the PR check, the hosted mode, the main-branch trend (self-hosted and hosted) and the upgrade gate', () => {
    assert.deepEqual(templates.sort(), [
      'perfgate-hosted-main.yml',
      'perfgate-hosted-report.yml',
      'perfgate-hosted.yml',
      'perfgate-main.yml',
      'perfgate-pr.yml',
      'perfgate-request.yml',
      'perfgate-upgrade.yml',
    ]);
    assert.deepEqual(actions.sort(), ['bench', 'compare', 'publish', 'request', 'upgrade-gate']);
  });

  test("third-party actions are pinned by full SHA, the same ones as this repository's workflows", () => {
    const ownPins = new Set(
      readdirSync(join(PROJECT_ROOT, '.github/workflows')).flatMap(
        (name) => read(`.github/workflows/${name}`).match(/[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v[\d.]+/g) ?? [],
      ),
    );
    for (const [where, source] of Object.entries(sources)) {
      for (const line of source.split('\n').filter((each) => /^\s*(- )?uses:/.test(each))) {
        const uses = line.replace(/^\s*(- )?uses:\s*/, '');
        if (uses.startsWith('./')) continue;
        assert.ok(ownPins.has(uses), `${where}: "${uses}" is not pinned as this repository's workflows pin it`);
      }
    }
  });

  test("each local action a template uses is one of the package's actions", () => {
    for (const [where, step] of steps().filter(([, each]) => each.uses?.startsWith('./'))) {
      const match = /^\.\/node_modules\/perfgate\/actions\/([\w-]+)$/.exec(step.uses);
      assert.ok(match && actions.includes(match[1]), `${where}: ${step.uses}`);
    }
  });

  test('no expression inside a run: script; no credentials kept by checkout; every job has a timeout', () => {
    for (const [where, step] of steps())
      if (step.run) assert.ok(!step.run.includes('${{'), `${where}: "${step.name}" expands an expression in run:`);
    for (const [where, step] of steps().filter(([, each]) => each.uses?.startsWith('actions/checkout@')))
      assert.equal(step.with['persist-credentials'], false, where);
    for (const [where, job] of jobs()) assert.ok(Number.isInteger(job['timeout-minutes']), where);
  });

  test('least privilege, and no event a pull request controls reaches the benchmark runner', () => {
    for (const [name, workflow] of Object.entries(workflows)) assert.deepEqual(workflow.permissions, {}, name);
    for (const [where, job, workflow] of jobs().filter(([, each]) => selfHosted(each))) {
      assert.deepEqual(job.permissions, { contents: 'read' }, where);
      const events = Object.keys(workflow.on);
      assert.deepEqual(
        events.filter((event) => !['workflow_dispatch', 'push', 'schedule'].includes(event)),
        [],
        `${where} runs on ${events}`,
      );
      if (workflow.on.push) assert.deepEqual(workflow.on.push.branches, ['main'], where);
    }
    const writers = jobs().filter(([, job]) => Object.values(job.permissions).includes('write'));
    assert.deepEqual(
      writers.map(([where, job]) => [where, job.permissions, selfHosted(job)]),
      [
        ['perfgate-hosted-main.yml:publish', { contents: 'write' }, false],
        [
          'perfgate-hosted-report.yml:report',
          { actions: 'read', contents: 'read', 'pull-requests': 'write', statuses: 'write' },
          false,
        ],
        ['perfgate-main.yml:publish', { contents: 'write' }, false],
        ['perfgate-request.yml:request', { actions: 'write', contents: 'read', 'pull-requests': 'write' }, false],
      ],
    );
    // The hosted mode's pull_request job runs with a read-only token; its trusted half follows it by name.
    assert.deepEqual(workflows['perfgate-hosted.yml'].jobs.compare.permissions, { contents: 'read' });
    assert.deepEqual(workflows['perfgate-hosted-report.yml'].on.workflow_run.workflows, [
      workflows['perfgate-hosted.yml'].name,
    ]);
  });

  test('the trusted trigger dispatches exactly the workflows that take a pull request and its approved commit', () => {
    const request = workflows['perfgate-request.yml'];
    assert.deepEqual(Object.keys(request.on).sort(), ['issue_comment', 'pull_request_target']);
    const dispatched = request.jobs.request.steps
      .filter((step) => step.uses === './node_modules/perfgate/actions/request')
      .map((step) => step.with.workflow);
    assert.deepEqual(dispatched, ['perfgate-pr.yml', 'perfgate-upgrade.yml']);
    for (const name of dispatched) {
      assert.deepEqual(Object.keys(workflows[name].on), ['workflow_dispatch'], name);
      assert.deepEqual(Object.keys(workflows[name].on.workflow_dispatch.inputs).sort(), ['pr', 'sha'], name);
    }
    // Nothing of the pull request is checked out where the token may write.
    for (const step of request.jobs.request.steps.filter((each) => each.uses?.startsWith('actions/checkout@'))) {
      assert.equal(step.with.ref, '${{ github.event.repository.default_branch }}');
    }
  });
});

// Each template job and the job of perfgate's own workflows it mirrors: the guards must be equal.
const MIRRORS = [
  ['perfgate-request.yml', 'request', 'bench-request.yml', 'request'],
  ['perfgate-pr.yml', 'compare', 'bench-pr.yml', 'compare'],
  ['perfgate-upgrade.yml', 'gate', 'upgrade-gate.yml', 'compare'],
  ['perfgate-main.yml', 'bench', 'bench-main.yml', 'bench'],
  ['perfgate-main.yml', 'publish', 'bench-main.yml', 'publish'],
  ['perfgate-hosted.yml', 'compare', 'bench-hosted.yml', 'compare'],
  ['perfgate-hosted-report.yml', 'report', 'bench-hosted-report.yml', 'report'],
  ['perfgate-hosted-main.yml', 'bench', 'bench-hosted-main.yml', 'bench'],
  ['perfgate-hosted-main.yml', 'publish', 'bench-hosted-main.yml', 'publish'],
];
const own = (name) => YAML.parse(read(`.github/workflows/${name}`));
// A job's guards, with its workflow's name taken out of its concurrency group.
function guards(workflow, job) {
  const group = (concurrency) => concurrency?.group?.replaceAll(workflow.name, 'NAME');
  return {
    if: job.if,
    'runs-on': job['runs-on'],
    permissions: job.permissions,
    concurrency: job.concurrency && { ...job.concurrency, group: group(job.concurrency) },
    workflowConcurrency: workflow.concurrency && { ...workflow.concurrency, group: group(workflow.concurrency) },
    events: Object.keys(workflow.on).sort(),
    pushBranches: workflow.on.push?.branches,
    labelBranches: workflow.on.pull_request_target?.branches,
  };
}

describe("the templates carry every guard of perfgate's own workflows", () => {
  test('each job has the if:, runner, permissions, concurrency and triggers of the job it mirrors', () => {
    assert.deepEqual([...new Set(MIRRORS.map(([name]) => name))].sort(), [...templates].sort());
    for (const [template, templateJob, workflow, workflowJob] of MIRRORS) {
      const mine = workflows[template];
      const theirs = own(workflow);
      assert.deepEqual(
        guards(mine, mine.jobs[templateJob]),
        guards(theirs, theirs.jobs[workflowJob]),
        `templates/${template}:${templateJob} has other guards than .github/workflows/${workflow}:${workflowJob}`,
      );
    }
    for (const [where, job] of jobs().filter(([, each]) => selfHosted(each)))
      assert.equal(job.if, "github.ref == 'refs/heads/main'", where);
  });

  test('the request asks for the upgrade gate as bench-request.yml does: only on manifest-only pull requests', () => {
    const step = workflows['perfgate-request.yml'].jobs.request.steps.find(
      (each) => each.with?.workflow === 'perfgate-upgrade.yml',
    );
    assert.deepEqual(
      [step.with.command, step.with.label, step.with['lockfile-only']],
      ['/perfgate-upgrade', 'run-upgrade-gate', true],
    );
    const ownStep = own('bench-request.yml').jobs.request.steps.find((each) => each.run?.includes('upgrade-gate.yml'));
    assert.match(ownStep.run, /--command \/perfgate-upgrade --label run-upgrade-gate --lockfile-only$/);
    const action = YAML.parse(sources['actions/request']);
    assert.match(
      action.runs.steps[0].run,
      /if \[\[ "\$LOCKFILE_ONLY" == true \]\]; then args\+=\(--lockfile-only\); fi/,
    );
  });

  test("the request runs insiders' pull requests without a request as bench-request.yml does: the benchmark's step only", () => {
    const steps = workflows['perfgate-request.yml'].jobs.request.steps.filter((each) => each.with?.workflow);
    assert.deepEqual(
      steps.map((each) => [each.with.workflow, each.with.automatic ?? false]),
      [
        ['perfgate-pr.yml', true],
        ['perfgate-upgrade.yml', false],
      ],
    );
    const ownSteps = own('bench-request.yml').jobs.request.steps.filter((each) => each.run);
    assert.deepEqual(
      ownSteps.map((each) => each.run.endsWith(' --automatic')),
      [true, false],
    );
    assert.deepEqual(
      workflows['perfgate-request.yml'].on.pull_request_target.types,
      own('bench-request.yml').on.pull_request_target.types,
    );
    const action = YAML.parse(sources['actions/request']);
    assert.match(action.runs.steps[0].run, /if \[\[ "\$AUTOMATIC" == true \]\]; then args\+=\(--automatic\); fi/);
  });
});

test('every finding the linters are told to ignore says why, on its line or in the comment above it', () => {
  const files = {
    ...sources,
    ...Object.fromEntries(
      readdirSync(join(PROJECT_ROOT, '.github/workflows')).map((name) => [
        `.github/workflows/${name}`,
        read(`.github/workflows/${name}`),
      ]),
    ),
  };
  let ignores = 0;
  for (const [where, source] of Object.entries(files)) {
    const lines = source.split('\n');
    lines.forEach((line, index) => {
      const match = /# zizmor: ignore\[[\w-]+\](.*)$/.exec(line);
      if (!match) return;
      ignores += 1;
      const reasonAbove = /^\s*# \S/.test(lines[index - 1] ?? '');
      assert.ok(match[1].trim().length > 10 || reasonAbove, `${where}:${index + 1} ignores a finding without a reason`);
    });
  }
  assert.ok(ignores >= 10);
});

describe("the request job installs nothing but perfgate, the tarball the user's lockfile locks", () => {
  const VERSION = '9.8.7';
  let registry;
  let tarball;
  const integrityOf = (bytes) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  before(async () => {
    const dir = tempDir('perfgate-pack-');
    mkdirSync(join(dir, 'package/scripts'), { recursive: true });
    writeFileSync(join(dir, 'package/package.json'), JSON.stringify({ name: 'perfgate', version: VERSION }));
    writeFileSync(join(dir, 'package/scripts/bench-request.mjs'), '');
    spawnSync('tar', ['-czf', join(dir, 'perfgate.tgz'), '-C', dir, 'package']);
    tarball = readFileSync(join(dir, 'perfgate.tgz'));
    // A registry on loopback that serves perfgate@VERSION and nothing else.
    const server = createServer((request, response) => {
      const url = `http://127.0.0.1:${server.address().port}`;
      if (request.url === '/perfgate')
        return response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            name: 'perfgate',
            'dist-tags': { latest: VERSION },
            versions: {
              [VERSION]: {
                name: 'perfgate',
                version: VERSION,
                dist: {
                  tarball: `${url}/perfgate/-/perfgate-${VERSION}.tgz`,
                  integrity: integrityOf(tarball),
                  shasum: createHash('sha1').update(tarball).digest('hex'),
                },
              },
            },
          }),
        );
      if (request.url === `/perfgate/-/perfgate-${VERSION}.tgz`) return response.writeHead(200).end(tarball);
      return response.writeHead(404).end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    registry = { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
  });
  after(() => registry.close());

  // The install step of templates/perfgate-request.yml, run as GitHub runs a bash step.
  async function installStep(lockedEntry) {
    const step = workflows['perfgate-request.yml'].jobs.request.steps.find((each) =>
      /^Install perfgate/.test(each.name),
    );
    const repo = tempDir('perfgate-user-');
    const lock = {
      lockfileVersion: 3,
      packages: { '': {}, ...(lockedEntry ? { 'node_modules/perfgate': lockedEntry } : {}) },
    };
    writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock));
    const run = await promisify(execFile)('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        HOME: repo,
        npm_config_registry: registry.url,
        npm_config_cache: join(repo, '.npm'),
        npm_config_update_notifier: 'false',
      },
    }).then(
      (done) => ({ ...done, code: 0 }),
      (error) => error,
    );
    return { ...run, repo };
  }

  test('the locked tarball is unpacked as node_modules/perfgate, and nothing else is installed', async () => {
    const run = await installStep({ version: VERSION, integrity: integrityOf(tarball) });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(readdirSync(join(run.repo, 'node_modules')), ['perfgate']);
    assert.equal(
      JSON.parse(readFileSync(join(run.repo, 'node_modules/perfgate/package.json'), 'utf8')).version,
      VERSION,
    );
    assert.ok(existsSync(join(run.repo, 'node_modules/perfgate/scripts/bench-request.mjs')));
  });

  test('a tarball other than the locked one, or no locked perfgate, is refused', async () => {
    const other = await installStep({ version: VERSION, integrity: integrityOf(Buffer.from('another tarball')) });
    assert.equal(other.code, 2);
    assert.match(other.stdout, /::error::the registry's perfgate 9\.8\.7 is not the tarball package-lock\.json locks/);
    assert.ok(!existsSync(join(other.repo, 'node_modules')));
    for (const entry of [
      undefined,
      { version: 'github:someone/perfgate', integrity: integrityOf(tarball) },
      { version: VERSION },
    ]) {
      const refused = await installStep(entry);
      assert.equal(refused.code, 2, JSON.stringify(entry));
      assert.match(
        refused.stdout,
        /::error::package-lock\.json locks no perfgate version from the registry with an integrity/,
      );
    }
  });

  test("like bench-request.yml's, the template's request job runs no npm ci or npm install", () => {
    for (const job of [workflows['perfgate-request.yml'].jobs.request, own('bench-request.yml').jobs.request])
      for (const step of job.steps.filter((each) => each.run))
        assert.doesNotMatch(step.run, /^\s*npm (ci|install|i)\b/m, step.name);
  });
});

describe('actions/fetch-commit.sh: the ref and commit checks of scripts/approved-commit.mjs', () => {
  function fetchCommit(env) {
    const dir = tempDir('perfgate-fetch-commit-');
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ repository: { default_branch: 'main' } }));
    return spawnSync('bash', [join(PROJECT_ROOT, 'actions/fetch-commit.sh')], {
      cwd: dir, // no repository here: a check that passes goes on to git and fails there
      encoding: 'utf8',
      env: { PATH: process.env.PATH, GITHUB_EVENT_PATH: join(dir, 'event.json'), ...env },
    });
  }
  const SHA = 'a'.repeat(40);

  test('refuses a prefix or anything but a full commit SHA', () => {
    for (const sha of ['aaaaaaa', `${SHA}0`, 'HEAD', '']) {
      const run = fetchCommit({ HEAD_SHA: sha, GITHUB_REF: 'refs/heads/main' });
      assert.equal(run.status, 2, sha);
      assert.match(run.stdout, /::error::head-sha must be a full 40-character commit SHA/);
    }
  });

  test('refuses to run from any ref but the default branch', () => {
    for (const ref of ['refs/heads/feature', 'refs/pull/7/merge', undefined]) {
      const run = fetchCommit({ HEAD_SHA: SHA, ...(ref ? { GITHUB_REF: ref } : {}) });
      assert.equal(run.status, 2, ref);
      assert.match(run.stdout, /::error::this runs on .*: dispatch the workflow on the default branch \(main\) only/);
    }
    const main = fetchCommit({ HEAD_SHA: SHA, GITHUB_REF: 'refs/heads/main' });
    assert.doesNotMatch(main.stdout, /::error::/, 'on main it goes on to fetch');
  });
});

const missing = workflowLinters(PROJECT_ROOT).filter((linter) => !isInstalled(linter));
const skip = missing.length
  ? `${missing.map((linter) => `${linter.name} ${linter.version}`).join(', ')} not installed (node scripts/setup.mjs --for test installs it)`
  : false;

test("actionlint and zizmor (every persona) find nothing in a user's repository laid out with them", {
  skip,
}, () => {
  const root = tempDir('perfgate-lint-');
  const zizmorPaths = adopterLayout(PROJECT_ROOT, root);
  assert.ok(existsSync(join(root, 'node_modules/perfgate/actions/compare/action.yml')));
  assert.ok(existsSync(join(root, '.github/workflows/perfgate-request.yml')));
  for (const persona of PERSONAS) {
    for (const [linter, args] of lintCommands(workflowLinters(PROJECT_ROOT), root, { persona, zizmorPaths })) {
      const run = spawnSync(linter.bin, args, { cwd: root, encoding: 'utf8' });
      assert.equal(run.status, 0, `${linter.name} (${persona}): ${run.stdout}${run.stderr}`);
    }
  }
});

const hasShellcheck = spawnSync('shellcheck', ['--version']).status === 0;

test("the actions' shell scripts pass shellcheck", {
  skip: hasShellcheck ? false : 'shellcheck is not installed (node scripts/setup.mjs --for test installs it)',
}, () => {
  const scripts = readdirSync(join(PROJECT_ROOT, 'actions'))
    .filter((name) => name.endsWith('.sh'))
    .map((name) => join('actions', name));
  assert.ok(scripts.length >= 2);
  const check = spawnSync('shellcheck', ['-x', ...scripts], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
});
