// perfgate as a user meets it: `npm pack` of this repository installed into a small Express
// service in its own git repository (two commits, the second clearly slower in one route),
// a perfgate.config.json at its root, then `npx perfgate bench` and `npx perfgate compare` run
// there, the composite actions' steps run from that repository with simulated GITHUB_* files,
// and the bad input a new user makes. Behaviour is asserted, never speed.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { YAML } from 'zx';
import { parseBenchmarkData } from '../bench/history/format.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { GIT_ENV, git } from './helpers/servers-repo.js';

const execFileAsync = promisify(execFile);
const QUIET_NPM = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
// Short rounds; the welch interval decides from 3 rounds a side (the paired one needs 6), and the
// reference, the same code on both sides, stops after 3 too, whatever it found (it never gates). A
// slowdown is not measured a second time: test/compare.e2e.test.js checks that confirmation.
const QUICK_COMPARE = [
  '--no-profile',
  '--no-confirm',
  '--duration',
  '0.5',
  '--warmup',
  '0.2',
  '--min-rounds',
  '3',
  '--max-rounds',
  '3',
  '--interval',
  'welch',
  '--budget',
  '60',
];

const USER = { id: 42, name: 'Ada' };
const APP = `import express from 'express';

const app = express();
app.get('/health', (req, res) => res.send('ok'));
app.get('/users/:id', (req, res) => res.json({ id: Number(req.params.id), name: 'Ada' }));
export default app;
`;
// The second commit: the users route does a few milliseconds of work first, the same answer.
const SLOW_ROUTE = `app.get('/users/:id', (req, res, next) => {
  let sum = 0;
  for (let i = 0; i < 2e6; i++) sum += i % 7;
  res.locals.sum = sum;
  next();
}, (req, res) => res.json({ id: Number(req.params.id), name: 'Ada' }));`;

// A branch of the service: a middleware package (from a tarball in the repository, so the test
// needs no registry) signs every request, a few milliseconds of CPU in a named function.
const MIDDLEWARE_PACKAGE = {
  'package.json': JSON.stringify({ name: 'shop-checksum', version: '1.0.0', type: 'module', main: 'index.js' }),
  'index.js': `export function signRequest(text) {
  let hash = 0x811c9dc5;
  for (let round = 0; round < 100000; round++) {
    for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  }
  return hash;
}

export default function checksum() {
  return (req, res, next) => {
    res.locals.signature = signRequest(req.url);
    next();
  };
}
`,
};

const CONFIG = {
  servers: { api: { module: 'app.js', readyPath: '/health' } },
  scenarios: {
    user: {
      path: '/users/42',
      expect: { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(USER) },
    },
  },
  connections: [4],
  duration: 1,
  warmup: 0.3,
  reference: { variants: ['node-http'], scenarios: ['hello'] },
};

const run = (command, args, cwd, env = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, CI: 'true', GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '', ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
const npx = (cwd, args, env) => run('npx', ['--no-install', 'perfgate', ...args], cwd, env);

// The tarball `npm publish` would upload, packed once for all the tests here.
let packed;
const pack = () => {
  packed ??= packNow();
  return packed;
};

function packNow() {
  const dir = tempDir('perfgate-pack-');
  const [file] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    }),
  );
  return { tarball: join(dir, file.filename), files: file.files.map((entry) => entry.path) };
}

// The user's service, made once for all the tests here: nothing they run changes its commits.
let service;
const userService = () => {
  service ??= makeService(pack().tarball);
  return service;
};

// The user's service: an Express app, its lockfile, perfgate installed from the tarball, the config.
function makeService(tarball) {
  const repo = tempDir('perfgate-user-');
  writeFileSync(
    join(repo, 'package.json'),
    `${JSON.stringify({ name: 'shop-api', version: '1.0.0', private: true, type: 'module', dependencies: { express: '^5.1.0' } }, null, 2)}\n`,
  );
  writeFileSync(join(repo, 'app.js'), APP);
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\nresults/\n.perfgate/\n');
  execFileSync('npm', ['install', ...QUIET_NPM], { cwd: repo });
  // Vendored in the repository, so that a side's install (sandboxed: it sees only the side's
  // directory and an empty npm cache) finds it as a user's install from the registry would.
  mkdirSync(join(repo, 'vendor'));
  copyFileSync(tarball, join(repo, 'vendor', basename(tarball)));
  execFileSync('npm', ['install', '--save-dev', ...QUIET_NPM, `./vendor/${basename(tarball)}`], { cwd: repo });
  writeFileSync(join(repo, 'perfgate.config.json'), `${JSON.stringify(CONFIG, null, 2)}\n`);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'the shop api');
  writeFileSync(join(repo, 'app.js'), APP.replace(/app\.get\('\/users\/:id'.*\n/, `${SLOW_ROUTE}\n`));
  git(repo, 'commit', '-qam', 'users: compute a checksum first');
  addMiddlewareBranch(repo);
  return repo;
}

// The branch "middleware" off main: the package added to package.json and the lockfile (so a
// side of it installs its own node_modules, while main's side reuses the project's), used by app.js.
function addMiddlewareBranch(repo) {
  const branch = tempDir('perfgate-branch-');
  git(repo, 'worktree', 'add', '-q', '-b', 'middleware', branch);
  const source = tempDir('perfgate-package-');
  for (const [file, text] of Object.entries(MIDDLEWARE_PACKAGE)) writeFileSync(join(source, file), text);
  mkdirSync(join(branch, 'vendor'), { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', join(branch, 'vendor'), '--loglevel=error'], { cwd: source });
  execFileSync('npm', ['install', '--package-lock-only', ...QUIET_NPM, './vendor/shop-checksum-1.0.0.tgz'], {
    cwd: branch,
  });
  const app = readFileSync(join(branch, 'app.js'), 'utf8');
  writeFileSync(
    join(branch, 'app.js'),
    app
      .replace(
        "import express from 'express';",
        "import express from 'express';\nimport checksum from 'shop-checksum';",
      )
      .replace("app.get('/health'", "app.use(checksum());\napp.get('/health'"),
  );
  git(branch, 'add', '.');
  git(branch, 'commit', '-qm', 'sign every request');
  git(repo, 'worktree', 'remove', branch);
}

// Processes started from the user's repository (other agents' runs on this machine are not ours).
const leftovers = (repo) =>
  execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(repo));

describe("perfgate in a user's repository", () => {
  let repo;
  before(() => {
    repo = userService();
  });

  test('the package ships the harness, engines, variants, site and actions, and no test fixtures', () => {
    for (const file of [
      'bin/perfgate.js',
      'bench/measurement/run-suite.js',
      'bench/measurement/load.js',
      'servers/handler.js',
      'servers/variants/node-http.js',
      'site/index.html',
      'docs/getting-started.md',
      'actions/compare/action.yml',
      'actions/fetch-commit.sh',
      'templates/perfgate-pr.yml',
    ]) {
      assert.ok(packed.files.includes(file), `${file} is not in the package`);
    }
    assert.deepEqual(
      packed.files.filter((file) => file.startsWith('test/') || file.includes('fixtures')),
      [],
    );
    const installed = JSON.parse(readFileSync(join(repo, 'node_modules/perfgate/package.json'), 'utf8'));
    // The reference frameworks are not pulled into the user's project.
    for (const heavy of ['bun', 'uWebSockets.js', 'hyper-express', 'fastify'])
      assert.equal(installed.dependencies[heavy], undefined, heavy);
  });

  test("npx perfgate bench measures the service and the reference beside it, into the repository's history", () => {
    const out = join(tempDir(), 'bench');
    const bench = npx(repo, ['bench', '--out', out]);
    assert.equal(bench.code, 0, bench.stderr);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    assert.equal(result.suite, 'shop-api');
    assert.deepEqual(
      result.benchmarks.map((benchmark) => [benchmark.id, benchmark.status]),
      [
        ['api user c=4', 'ok'],
        ['node-http hello c=4', 'ok'],
      ],
    );
    assert.ok(result.benchmarks[0].summary.requests.mean > 0);
    assert.match(bench.stdout, /\| api user \| 4 \|/);
    const history = join(repo, '.perfgate/history/data.js');
    assert.ok(existsSync(history), "the history is the user repository's");
    // The site shows the project's trend under its config's name (here package.json's).
    assert.deepEqual(Object.keys(parseBenchmarkData(readFileSync(history, 'utf8'), history).entries), [
      'shop-api throughput',
      'shop-api latency',
    ]);
    assert.match(bench.stdout, /^history: .*data\.js \(perfgate site shows it\)$/m);
  });

  test('npx perfgate compare --base HEAD~1 --head HEAD finds the slower route and fails', () => {
    const out = join(tempDir(), 'compare');
    const compared = npx(repo, ['compare', '--base', 'HEAD~1', '--head', 'HEAD', ...QUICK_COMPARE, '--out', out]);
    assert.equal(compared.code, 1, compared.stderr);
    const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    const api = comparison.benchmarks.find((benchmark) => benchmark.id === 'api user c=4');
    assert.equal(api.verdicts['req/s'].verdict, 'regression');
    // The reference runs the same code on both sides: never part of the gate.
    assert.equal(comparison.benchmarks.find((benchmark) => benchmark.id === 'node-http hello c=4').reference, true);
    assert.deepEqual(comparison.gate.regressions, ['api user c=4']);
    assert.match(comparison.sides.base.description, /^HEAD~1 \([0-9a-f]{12}\)$/);
    assert.match(compared.stdout, /\| api user c=4 \| req\/s \|.*regression/);
    assert.deepEqual(leftovers(repo), []);
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1);
  });

  test('npx perfgate compare with the default --out: the profile names the function and the package the branch added', () => {
    const compared = npx(repo, [
      'compare',
      '--base',
      'main',
      '--head',
      'middleware',
      ...QUICK_COMPARE.filter((flag) => flag !== '--no-profile'),
      '--profile',
    ]);
    assert.ok([0, 1].includes(compared.code), compared.stderr);
    const out = /^results: (.+)$/m.exec(compared.stdout)[1];
    assert.match(out, /^results\//, 'the default --out is relative to the repository');
    const comparison = JSON.parse(readFileSync(join(repo, out, 'comparison.json'), 'utf8'));
    const { profile } = comparison.benchmarks.find((benchmark) => benchmark.id === 'api user c=4');
    assert.equal(profile.skipped, undefined, profile.skipped);
    // Named with its package and its file in that package; it was not there in main. (Where it
    // ranks among the rest depends on how busy the machine is: the profile samples wall time.)
    const added = profile.grew.find((row) => row.functionName === 'signRequest');
    assert.deepEqual(added && [added.package, added.path, added.line, added.base], ['shop-checksum', 'index.js', 1, 0]);
    // main's side reuses the project's node_modules (absolute paths), the branch's installed its
    // own: each function still has one identity, so none both grew and shrank. Two anonymous
    // functions of app.js in different columns are two functions (the handler's few µs per
    // request may move either way while the route's own cost grows); one that only moved down a
    // line keeps its column, so it must still be one row.
    const identity = (row) => `${row.package} ${row.path} ${row.functionName} column ${row.column}`;
    const grew = new Set(profile.grew.map(identity));
    assert.deepEqual(
      profile.shrank.map(identity).filter((row) => grew.has(row)),
      [],
    );
    assert.deepEqual(
      [...profile.grew, ...profile.shrank].filter((row) => row.path.startsWith('/')),
      [],
      'no side-specific path',
    );
    assert.match(
      readFileSync(join(repo, out, 'comparison.md'), 'utf8'),
      /\| signRequest \| index\.js:1 \| shop-checksum \|/,
    );
    assert.deepEqual(leftovers(repo), []);
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1);
  });

  test('npx perfgate bisect --good HEAD~1 --bad HEAD finds the slower commit of the service', () => {
    const out = join(tempDir(), 'bisect');
    const bisected = npx(repo, [
      'bisect',
      '--good',
      'HEAD~1',
      '--bad',
      'HEAD',
      '--benchmark',
      'api user c=4',
      ...QUICK_COMPARE,
      '--out',
      out,
    ]);
    assert.equal(bisected.code, 0, bisected.stderr);
    const bisect = JSON.parse(readFileSync(join(out, 'bisect.json'), 'utf8'));
    assert.equal(bisect.outcome, 'found');
    assert.equal(bisect.firstBad.sha, git(repo, 'rev-parse', 'HEAD'));
    assert.deepEqual(leftovers(repo), []);
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1);
  });

  test('a reference variant whose framework is not installed is skipped with the install command', () => {
    const dir = tempDir();
    const config = { ...CONFIG, reference: { variants: ['h3'], scenarios: ['hello'] } };
    writeFileSync(join(repo, 'perfgate.config.json'), JSON.stringify(config));
    const bench = npx(repo, ['bench', '--out', join(dir, 'out'), '--no-history']);
    git(repo, 'checkout', '--', 'perfgate.config.json');
    assert.equal(bench.code, 0, bench.stderr);
    assert.match(bench.stderr, /skipped h3: the npm package "h3" is not installed \(npm install --save-dev h3\)/);
  });

  describe('bad input', () => {
    test('no config file: the message says how to create one', () => {
      const empty = tempDir();
      git(empty, 'init', '-q');
      const bench = run(process.execPath, [join(repo, 'node_modules/perfgate/bin/perfgate.js'), 'bench'], empty);
      assert.equal(bench.code, 2);
      assert.match(bench.stderr, /no perfgate\.config\.json at .*: create one there/);
      assert.match(bench.stderr, /"servers": \{ "app": \{ "module": "app\.js" \} \}/);
    });

    test('a server command that does not exist is named, before anything starts', () => {
      const config = { ...CONFIG, servers: { api: { command: ['shop-api-server', '--port', '0'] } } };
      writeFileSync(join(repo, 'perfgate.config.json'), JSON.stringify(config));
      const bench = npx(repo, ['bench', '--no-history']);
      git(repo, 'checkout', '--', 'perfgate.config.json');
      assert.equal(bench.code, 2);
      assert.match(bench.stderr, /servers\.api\.command: "shop-api-server" is neither a program on PATH nor a file in/);
    });

    test('a wrong field is named with what is allowed', () => {
      const config = {
        ...CONFIG,
        reference: { variants: ['expresss'], scenarios: ['hello'] },
        servers: { api: { module: 'app.js', comand: ['node'] } },
      };
      writeFileSync(join(repo, 'perfgate.config.json'), JSON.stringify(config));
      const bench = npx(repo, ['bench', '--no-history']);
      git(repo, 'checkout', '--', 'perfgate.config.json');
      assert.equal(bench.code, 2);
      assert.match(bench.stderr, /servers\.api: unknown field "comand" \(did you mean "command"\?\)/);
      assert.match(
        bench.stderr,
        /reference\.variants\.0: "expresss" is not allowed \(did you mean "express"\?\) \(allowed: .*express,/,
      );
    });

    test('a server that crashes at start: its error is shown, and a run with none of its servers measured is not history', () => {
      writeFileSync(join(repo, 'broken.js'), "import 'shop-session-store';\nexport default () => {};\n");
      writeFileSync(
        join(repo, 'perfgate.config.json'),
        JSON.stringify({ ...CONFIG, servers: { api: { module: 'broken.js', readyPath: '/health' } } }),
      );
      const dir = tempDir();
      const history = join(dir, 'data.js');
      const bench = npx(repo, ['bench', '--out', join(dir, 'out'), '--history', history]);
      git(repo, 'checkout', '--', 'perfgate.config.json');
      rmSync(join(repo, 'broken.js'));
      assert.equal(bench.code, 1);
      const [api, reference] = JSON.parse(readFileSync(join(dir, 'out/result.json'), 'utf8')).benchmarks;
      assert.equal(reference.status, 'ok');
      assert.match(api.reason, /exited \(code 1\) while starting: .*Cannot find package 'shop-session-store'/);
      assert.match(
        bench.stderr,
        /history: this run is not added to .*data\.js: every benchmark of your servers failed/,
      );
      assert.match(bench.stderr, /run perfgate bench again/);
      assert.equal(existsSync(history), false, 'the reference alone is not a run of the project');
    });

    test('a ref that does not exist in the repository', () => {
      const compared = npx(repo, ['compare', '--base', 'release-1', '--head', 'HEAD']);
      assert.equal(compared.code, 2);
      assert.match(
        compared.stderr,
        /"release-1" is not a commit in .*perfgate-user-.*: check the name with `git log --oneline`/,
      );
    });
  });
});

// A composite action's `run:` steps, run as the runner would: `${{ inputs.* }}` and
// `${{ runner.temp }}` expanded in `env:` (never in `run:`), GITHUB_* files simulated.
// The action is the installed package's, where the templates' `uses:` finds it.
async function runActionSteps(action, { cwd, inputs, runnerTemp, env }) {
  const actionPath = join(cwd, 'node_modules/perfgate/actions', action);
  const steps = YAML.parse(readFileSync(join(actionPath, 'action.yml'), 'utf8')).runs.steps;
  const expand = (value) =>
    String(value).replace(/\$\{\{\s*(inputs\.([\w-]+)|runner\.temp)\s*\}\}/g, (_, __, input) =>
      input ? inputs[input] : runnerTemp,
    );
  const outcomes = [];
  for (const step of steps.filter((each) => each.run)) {
    assert.ok(!step.run.includes('${{'), `${action}: "${step.name}" expands an expression in run:`);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value)]));
    assert.ok(
      !Object.values(stepEnv).some((value) => value.includes('${{')),
      `${action}: "${step.name}" has an expression the test does not simulate`,
    );
    // Asynchronous: a fake GitHub API may answer from this process meanwhile.
    const result = await execFileAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        ...GIT_ENV,
        CI: 'true',
        GITHUB_STEP_SUMMARY: '',
        GITHUB_OUTPUT: '',
        RUNNER_TEMP: runnerTemp,
        GITHUB_ACTION_PATH: actionPath,
        ...env,
        ...stepEnv,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    outcomes.push({ name: step.name, ...result });
    if (result.code !== 0) break;
  }
  return outcomes;
}

describe("the composite actions, from a user's repository", () => {
  let repo;
  let github;
  before(() => {
    repo = userService();
    const root = tempDir('perfgate-github-');
    // GitHub: the repository as a remote whose pull request 7 carries the slower commit.
    const remote = join(root, 'shop/api.git');
    git(root, 'init', '-q', '--bare', '-b', 'main', remote);
    git(repo, 'push', '-q', remote, 'HEAD~1:refs/heads/main', 'HEAD:refs/pull/7/head');
    // Pull request 8, as dependabot makes it: the default branch with express locked at 5.0.0.
    const bump = join(root, 'bump');
    git(root, 'clone', '-q', remote, bump);
    execFileSync('npm', ['install', '--package-lock-only', ...QUIET_NPM, 'express@5.0.0'], { cwd: bump });
    git(bump, 'commit', '-qam', 'Bump express to 5.0.0');
    git(bump, 'push', '-q', remote, 'HEAD:refs/pull/8/head');
    // The runner's checkout: the default branch, perfgate installed from its lockfile.
    const checkout = join(root, 'checkout');
    git(root, 'clone', '-q', remote, checkout);
    symlinkSync(join(repo, 'node_modules'), join(checkout, 'node_modules'));
    const files = { GITHUB_OUTPUT: join(root, 'output'), GITHUB_STEP_SUMMARY: join(root, 'summary.md') };
    for (const file of Object.values(files)) writeFileSync(file, '');
    // A workflow_dispatch on the default branch, the only ref the actions run from.
    const dispatch = join(root, 'dispatch.json');
    writeFileSync(dispatch, JSON.stringify({ repository: { default_branch: 'main' }, ref: 'refs/heads/main' }));
    github = {
      root,
      checkout,
      remote,
      files,
      bumpSha: git(bump, 'rev-parse', 'HEAD'),
      env: {
        ...files,
        GITHUB_SERVER_URL: `file://${root}`,
        GITHUB_REPOSITORY: 'shop/api',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_EVENT_PATH: dispatch,
        GITHUB_SHA: git(checkout, 'rev-parse', 'HEAD'),
      },
    };
  });

  test("compare: the approved commit against its merge base, judged by the default branch's perfgate", async () => {
    const headSha = git(repo, 'rev-parse', 'HEAD');
    const runnerTemp = tempDir();
    const steps = await runActionSteps('compare', {
      cwd: github.checkout,
      inputs: { 'head-sha': headSha, token: 'token', 'compare-options': QUICK_COMPARE.join(' ') },
      runnerTemp,
      env: github.env,
    });
    assert.deepEqual(
      steps.map((step) => step.name),
      ['Fetch the commit to measure', 'Compare it with its merge base'],
    );
    assert.equal(steps[0].code, 0, steps[0].stderr);
    assert.equal(steps[1].code, 1, steps[1].stderr);
    const comparison = JSON.parse(readFileSync(join(runnerTemp, 'perfgate-bench/comparison.json'), 'utf8'));
    assert.equal(comparison.sides.head.sha, headSha);
    assert.equal(comparison.sides.base.sha, github.env.GITHUB_SHA);
    assert.match(readFileSync(github.files.GITHUB_OUTPUT, 'utf8'), /^regression=true$/m);
    assert.match(readFileSync(github.files.GITHUB_STEP_SUMMARY, 'utf8'), /\| api user c=4 \| req\/s \|/);
  });

  test('compare: a head-sha that is not a full SHA is refused before anything runs', async () => {
    const steps = await runActionSteps('compare', {
      cwd: github.checkout,
      inputs: { 'head-sha': 'main; rm -rf /', token: 'token' },
      runnerTemp: tempDir(),
      env: github.env,
    });
    assert.equal(steps.length, 1);
    assert.equal(steps[0].code, 2);
    assert.match(steps[0].stdout, /::error::head-sha must be a full 40-character commit SHA/);
  });

  test('bench then publish: the default branch measured, its results and the trend site on a new gh-pages', async () => {
    const runnerTemp = tempDir();
    const bench = await runActionSteps('bench', { cwd: github.checkout, inputs: {}, runnerTemp, env: github.env });
    assert.equal(bench.at(-1).code, 0, bench.at(-1).stderr);
    assert.ok(existsSync(join(runnerTemp, 'perfgate-results/benchmark-action-bigger.json')));
    const publish = await runActionSteps('publish', {
      cwd: github.checkout,
      inputs: { token: 'token' },
      runnerTemp,
      env: github.env,
    });
    assert.equal(publish.at(-1).code, 0, publish.at(-1).stderr);
    const pages = git(github.root, '--git-dir', github.remote, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n');
    for (const file of ['dev/bench/data.js', 'index.html', 'app.js', '.nojekyll'])
      assert.ok(pages.includes(file), `${file} is not on gh-pages`);
    const data = git(github.root, '--git-dir', github.remote, 'show', 'gh-pages:dev/bench/data.js');
    assert.match(data, /"name": "api user c=4 - req\/s"/);
    // Grouped under the project's name, as the local history is.
    assert.deepEqual(Object.keys(parseBenchmarkData(data, 'gh-pages').entries), [
      'shop-api throughput',
      'shop-api latency',
    ]);
  });

  test("upgrade gate: the default branch's servers with the old and the new version the pull request locks", async () => {
    const runnerTemp = tempDir();
    const steps = await runActionSteps('upgrade-gate', {
      cwd: github.checkout,
      inputs: { 'head-sha': github.bumpSha, token: 'token', 'compare-options': QUICK_COMPARE.join(' ') },
      runnerTemp,
      env: github.env,
    });
    assert.ok([0, 1].includes(steps.at(-1).code), steps.at(-1).stderr);
    const comparison = JSON.parse(readFileSync(join(runnerTemp, 'perfgate-upgrade/comparison-express.json'), 'utf8'));
    assert.match(comparison.sides.base.description, /^express@5\.\d+\.\d+$/);
    assert.equal(comparison.sides.head.description, 'express@5.0.0');
    assert.equal(comparison.benchmarks.find((benchmark) => benchmark.id === 'api user c=4').status, 'ok');
    assert.match(readFileSync(github.files.GITHUB_STEP_SUMMARY, 'utf8'), /express 5\.\d+\.\d+ → 5\.0\.0/);
  });

  test("request: a maintainer's /perfgate <sha> dispatches perfgate-pr.yml on main with that commit, the pull request's head", async () => {
    const headSha = git(repo, 'rev-parse', 'HEAD');
    const api = await startFakeGitHub([
      [
        'GET',
        /^\/repos\/shop\/api\/collaborators\/ada\/permission$/,
        () => [200, { permission: 'write', role_name: 'maintain' }],
      ],
      [
        'GET',
        /^\/repos\/shop\/api\/pulls\/7$/,
        () => [
          200,
          {
            number: 7,
            state: 'open',
            base: { ref: 'main' },
            head: { sha: headSha, repo: { full_name: 'shop/api', fork: false } },
          },
        ],
      ],
      ['POST', /^\/repos\/shop\/api\/actions\/workflows\/perfgate-pr\.yml\/dispatches$/, () => [204]],
      ['POST', /^\/repos\/shop\/api\/issues\/7\/comments$/, () => [201, { id: 1 }]],
    ]);
    try {
      const event = join(tempDir(), 'event.json');
      writeFileSync(
        event,
        JSON.stringify({
          action: 'created',
          repository: { default_branch: 'main' },
          issue: { number: 7, pull_request: {} },
          comment: { id: 9, body: `/perfgate ${headSha}`, user: { login: 'ada' }, author_association: 'MEMBER' },
        }),
      );
      const env = {
        ...github.env,
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: event,
        GITHUB_API_URL: api.url,
      };
      const asked = { workflow: 'perfgate-pr.yml', command: '/perfgate', label: 'run-bench', token: 'token' };
      const steps = await runActionSteps('request', {
        cwd: github.checkout,
        inputs: asked,
        runnerTemp: tempDir(),
        env,
      });
      assert.equal(steps.at(-1).code, 0, steps.at(-1).stderr);
      const dispatch = api.requests.find((request) => request.path.endsWith('/dispatches'));
      assert.deepEqual(dispatch.body, { ref: 'main', inputs: { pr: '7', sha: headSha } });
      // The upgrade gate's step of the same template does not take a `/perfgate` comment.
      const other = await runActionSteps('request', {
        cwd: github.checkout,
        inputs: { ...asked, workflow: 'perfgate-upgrade.yml', command: '/perfgate-upgrade', label: 'run-upgrade-gate' },
        runnerTemp: tempDir(),
        env,
      });
      assert.match(other.at(-1).stdout, /not a benchmark request: nothing to do/);
      assert.equal(api.requests.filter((request) => request.path.endsWith('/dispatches')).length, 1);
    } finally {
      await api.close();
    }
  });
});
