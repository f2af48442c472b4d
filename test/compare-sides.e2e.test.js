// Making a side of a user's repository: the files git does not hold ("copy", and the error that
// names one a server missed), and an install that fails (npm's first error lines and its log,
// and what to do when one of the project's install scripts failed). No server is started.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { harnessRegistry } from '../bench/measurement/sandbox/install.js';
import { createWorkRoot, missingFileHint, prepareGitSide } from '../bench/comparison/sides.js';
import { installFailure } from '../bench/comparison/install-output.js';
import { git } from './helpers/servers-repo.js';
import { packageTarball, startFakeRegistryProcess } from './helpers/fake-registry.js';
import { setProcessEnv, tempDir } from './helpers/harness.js';

const QUIET_NPM = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

// A repository whose server reads data/users.json, which .gitignore keeps out of git; `files`: more of its files.
function repository(manifest = { name: 'shop', version: '1.0.0', private: true }, files = {}) {
  const repo = tempDir('perfgate-sides-');
  writeFileSync(join(repo, 'package.json'), JSON.stringify(manifest));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(repo, file), text);
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', ...QUIET_NPM], { cwd: repo });
  writeFileSync(join(repo, 'app.js'), "import users from './data/users.json' with { type: 'json' };\n");
  writeFileSync(join(repo, '.gitignore'), 'data/\nnode_modules/\n');
  mkdirSync(join(repo, 'data'));
  writeFileSync(join(repo, 'data/users.json'), '[{"id":42}]');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'shop');
  return { repo, sha: git(repo, 'rev-parse', 'HEAD') };
}

describe("a side of a user's repository", () => {
  const work = createWorkRoot();
  after(() => work.remove());
  const side = (label, { repo, sha }, options) =>
    prepareGitSide({ repo, sha, ref: 'main', label, work, projectRoot: repo, ...options });

  test('holds what git holds, plus the files "copy" names from the working tree', () => {
    const shop = repository();
    const bare = side('bare', shop, { install: ['true'] });
    const copied = side('copied', shop, { install: ['true'], copy: ['data/users.json'] });
    assert.equal(readFileSync(join(copied.root, 'data/users.json'), 'utf8'), '[{"id":42}]');
    // A server of the bare side crashes on the missing file: the error says why, and what to do.
    const message = `server "api" exited (code 1) while starting: Error: ENOENT: no such file or directory, open '${join(bare.root, 'data/users.json')}'`;
    assert.equal(
      missingFileHint({ message, code: 'PG_SERVER_EXITED' }, [bare]),
      `data/users.json is in your working tree but git does not hold it, so a side's copy lacks it: list it in perfgate.config's "copy"`,
    );
    assert.equal(
      missingFileHint({ message: message.replace(bare.root, copied.root), code: 'PG_SERVER_EXITED' }, [copied]),
      undefined,
    );
    // A server that made the missing file afresh answers wrongly: the files git ignores are named.
    const wrong = { message: 'server "api" answered scenario "user" wrongly', code: 'PG_WRONG_ANSWER' };
    assert.match(
      missingFileHint(wrong, [bare]),
      /files git ignores that the sides lack \(data\/\): if a server needs one, list it in perfgate\.config's "copy"/,
    );
    assert.equal(missingFileHint(wrong, [copied]), undefined);
    assert.equal(missingFileHint({ ...wrong, code: 'PG_SERVER_HUNG' }, [bare]), undefined);
  });

  test("a side with the project's lockfile reuses its node_modules, unless the install also builds", () => {
    const shop = repository();
    mkdirSync(join(shop.repo, 'node_modules'));
    // What each side does is said as it starts, since an install may take minutes.
    const said = [];
    const onProgress = (line) => said.push(line);
    const reused = side('reused', shop, { install: ['npm', 'ci', '--ignore-scripts'], onProgress });
    assert.equal(realpathSync(join(reused.root, 'node_modules')), realpathSync(join(shop.repo, 'node_modules')));
    const build = ['sh', '-c', 'mkdir node_modules && echo built > built.txt'];
    const built = side('built', shop, { install: build, onProgress });
    assert.equal(readFileSync(join(built.root, 'built.txt'), 'utf8'), 'built\n');
    assert.equal(lstatSync(join(built.root, 'node_modules')).isSymbolicLink(), false);
    assert.deepEqual(said, [
      "reused: reuses your node_modules (its package-lock.json is your working tree's)",
      `built: installs with \`${build.join(' ')}\``,
    ]);
  });

  test("an install that fails shows npm's first error lines and its log, not its usage text", () => {
    const shop = repository();
    // The commit's package.json asks for a package its lockfile does not lock.
    const manifest = JSON.parse(readFileSync(join(shop.repo, 'package.json'), 'utf8'));
    writeFileSync(
      join(shop.repo, 'package.json'),
      JSON.stringify({ ...manifest, dependencies: { 'left-pad': '1.3.0' } }),
    );
    git(shop.repo, 'commit', '-qam', 'left-pad');
    assert.throws(
      () =>
        side(
          'unsynced',
          { ...shop, sha: git(shop.repo, 'rev-parse', 'HEAD') },
          { install: ['npm', 'ci', ...QUIET_NPM] },
        ),
      (error) => {
        assert.equal(error.code, 'PG_INSTALL_FAILED');
        assert.match(
          error.message,
          /`npm ci` can only install packages when your package\.json and package-lock\.json/,
        );
        assert.match(error.message, /npm's log: \S+\.log/);
        assert.doesNotMatch(error.message, /Clean install a project|Usage:/);
        return true;
      },
    );
  });

  test("an install script of the project that fails: the side's install says how to skip them", () => {
    const shop = repository({ name: 'shop', version: '1.0.0', scripts: { prepare: 'node -e "process.exit(3)"' } });
    assert.throws(
      () => side('scripted', shop, { install: ['npm', 'ci', '--no-audit', '--no-fund'] }),
      /command failed.*an install script of the project \(prepare, postinstall, \.\.\.\) failed: if the servers do not need it, set perfgate\.config's "install" to \["npm", "ci", "--ignore-scripts"\]/,
    );
    const skipped = side('unscripted', shop, { install: ['npm', 'ci', '--no-audit', '--no-fund', '--ignore-scripts'] });
    assert.ok(skipped.root);
  });
});

// A pull request's install scripts run in the sandbox: what its postinstall (probe.cjs) could
// reach of the harness's machine, recorded in the side, where the test reads it.
describe('a side installed in the sandbox', { skip: sandboxUnavailable() ?? false }, () => {
  const work = createWorkRoot();
  const home = tempDir('perfgate-harness-home-');
  const outside = join(tempDir('perfgate-outside-'), 'planted');
  let registry;
  let restoreEnv;

  before(async () => {
    registry = await startFakeRegistryProcess({
      tiny: { '1.0.0': packageTarball({ name: 'tiny', version: '1.0.0', main: 'index.js' }, { 'index.js': '' }) },
    });
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/id_ed25519'), 'a key of the runner user');
    writeFileSync(join(home, '.npmrc'), '//registry.example/:_authToken=secret\n');
    restoreEnv = setProcessEnv({
      HOME: home,
      GITHUB_TOKEN: 'ghs_harness',
      npm_config_registry: registry.url,
      npm_config_cache: tempDir('perfgate-npm-cache-'),
      npm_config_fetch_retries: '0',
      // Under `npm test`, npm hands its scripts the user config it read (the real ~/.npmrc), which
      // would hide the stand-in home's.
      npm_config_userconfig: join(home, '.npmrc'),
    });
  });
  after(async () => {
    work.remove();
    await registry?.close();
    restoreEnv?.();
  });

  test("its postinstall reaches neither the harness user's home nor outside its directory; the install works", () => {
    const probe = `const fs = require('node:fs');
const attempt = (job) => { try { job(); return 'done'; } catch (error) { return error.code; } };
fs.writeFileSync('probe.json', JSON.stringify({
  key: attempt(() => fs.readFileSync(${JSON.stringify(join(home, '.ssh/id_ed25519'))})),
  npmrc: attempt(() => fs.readFileSync(${JSON.stringify(join(home, '.npmrc'))})),
  plant: attempt(() => fs.writeFileSync(${JSON.stringify(outside)}, 'x')),
  env: process.env,
}));
`;
    const manifest = {
      name: 'shop',
      version: '1.0.0',
      private: true,
      dependencies: { tiny: '1.0.0' },
      scripts: { postinstall: 'node probe.cjs' },
    };
    const shop = repository(manifest, { 'probe.cjs': probe });
    const installed = prepareGitSide({
      ...shop,
      ref: 'main',
      label: 'sandboxed',
      work,
      projectRoot: shop.repo,
      install: ['npm', 'ci', ...QUIET_NPM],
      sandboxed: true,
    });
    assert.ok(existsSync(join(installed.root, 'node_modules/tiny/package.json')), 'installed from the registry');
    const seen = JSON.parse(readFileSync(join(installed.root, 'probe.json'), 'utf8'));
    assert.equal(seen.key, 'ENOENT');
    assert.equal(seen.npmrc, 'ENOENT');
    assert.notEqual(seen.plant, 'done');
    assert.equal(existsSync(outside), false);
    assert.notEqual(seen.env.HOME, home);
    assert.notEqual(seen.env.npm_config_cache, process.env.npm_config_cache);
    assert.equal(seen.env.GITHUB_TOKEN, undefined);
    assert.equal(seen.env.npm_config_registry, registry.url);
  });

  test("the registry the harness's npm uses from its ~/.npmrc reaches the sandbox, the file does not", () => {
    const saved = process.env.npm_config_registry;
    delete process.env.npm_config_registry;
    writeFileSync(join(home, '.npmrc'), `registry=${registry.url}\n//registry.example/:_authToken=secret\n`);
    try {
      const shop = repository(undefined, {});
      writeFileSync(join(shop.repo, 'package.json'), JSON.stringify({ name: 'shop', dependencies: { tiny: '1.0.0' } }));
      execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', ...QUIET_NPM], { cwd: shop.repo });
      git(shop.repo, 'commit', '-qam', 'tiny');
      const installed = prepareGitSide({
        ...shop,
        sha: git(shop.repo, 'rev-parse', 'HEAD'),
        ref: 'main',
        label: 'npmrc',
        work,
        projectRoot: shop.repo,
        install: ['npm', 'ci', ...QUIET_NPM],
        sandboxed: true,
      });
      assert.ok(existsSync(join(installed.root, 'node_modules/tiny/package.json')));
    } finally {
      process.env.npm_config_registry = saved;
    }
  });

  test("an install script that fails in the sandbox: the error says how to skip them, and npm's log is kept", () => {
    const shop = repository({ name: 'shop', version: '1.0.0', scripts: { postinstall: 'node -e "process.exit(3)"' } });
    assert.throws(
      () =>
        prepareGitSide({
          ...shop,
          ref: 'main',
          label: 'failing',
          work,
          projectRoot: shop.repo,
          install: ['npm', 'ci', '--no-audit', '--no-fund'],
          sandboxed: true,
        }),
      (error) => {
        assert.match(error.message, /an install script of the project \(prepare, postinstall, \.\.\.\) failed/);
        const log = /npm's log: (\S+\.log)/.exec(error.message)?.[1];
        assert.ok(log && existsSync(log), error.message);
        rmSync(dirname(log), { recursive: true });
        return true;
      },
    );
  });
});

test("the harness's registry is asked of npm once per run, however many sides are installed", () => {
  // A stand-in npm on PATH that counts its calls; `answer`: what it prints.
  const npmSaying = (answer) => {
    const bin = tempDir('perfgate-fake-npm-');
    const calls = join(bin, 'calls');
    writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$*" >> '${calls}'\n${answer ? `echo ${answer}` : 'exit 1'}\n`);
    chmodSync(join(bin, 'npm'), 0o755);
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: bin };
    return { env, calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []) };
  };
  const npm = npmSaying('https://registry.example/');
  for (let side = 0; side < 3; side++)
    assert.deepEqual(harnessRegistry(npm.env), { npm_config_registry: 'https://registry.example/' });
  assert.deepEqual(npm.calls(), ['config get registry']);
  // An npm with no answer is not asked again either; a registry in the environment is not asked for.
  const silent = npmSaying(null);
  for (let side = 0; side < 3; side++) assert.deepEqual(harnessRegistry(silent.env), {});
  assert.equal(silent.calls().length, 1);
  const named = npmSaying('https://other.example/');
  assert.deepEqual(harnessRegistry({ ...named.env, npm_config_registry: 'https://named.example/' }), {});
  assert.deepEqual(named.calls(), []);
});

test("an installer's output other than npm's: its first error-looking lines", () => {
  const yarn = installFailure(
    'yarn install v1.22\n[1/4] Resolving packages...\nerror Couldn\'t find package "x" on the "npm" registry.\ninfo Visit https://yarnpkg.com\n',
  );
  assert.deepEqual(yarn, {
    lines: 'error Couldn\'t find package "x" on the "npm" registry.',
    log: undefined,
    scriptFailed: false,
  });
});
