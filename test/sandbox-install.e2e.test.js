// Every install of a side runs in the sandbox: a commit's install and its overrides, with npm's
// program and config settings fixed whatever a .npmrc says (the side's, and a git dependency's
// that npm installs in a clone); a link out of the side after an install is refused by name. All
// from a registry stand-in on loopback; no server is started.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { overridesOf } from '../bench/comparison/overrides.js';
import { checkSandboxReach, createWorkRoot, prepareGitSide } from '../bench/comparison/sides.js';
import { sandboxUnavailable, wrap } from '../bench/measurement/sandbox/bubblewrap.js';
import { openRegistryRoute } from '../bench/measurement/sandbox/registry-route.js';
import {
  innerTarball,
  nestedInnerPackages,
  packageTarball,
  startFakeRegistryProcess,
} from './helpers/fake-registry.js';
import { setProcessEnv, tempDir } from './helpers/harness.js';
import { git } from './helpers/servers-repo.js';

const COMPARE = fileURLToPath(new URL('../scripts/compare.mjs', import.meta.url));
const QUIET_NPM = ['--no-audit', '--no-fund', '--loglevel=error'];

// A git repository of `files`, committed and tagged v1.
function gitRepo(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'files');
  git(dir, 'tag', 'v1');
  return dir;
}

// A program a .npmrc names as npm's git: if it ever runs, it leaves `marker`.
const planted = (marker) => `#!/bin/sh\necho ran > '${marker}'\nexit 1\n`;

describe('the installs of a sandboxed side', { skip: sandboxUnavailable() ?? false }, () => {
  const work = createWorkRoot();
  let registry;
  let restoreEnv;

  before(async () => {
    registry = await startFakeRegistryProcess(nestedInnerPackages());
    restoreEnv = setProcessEnv({
      npm_config_registry: registry.url,
      npm_config_cache: tempDir('perfgate-npm-cache-'),
      npm_config_fetch_retries: '0',
    });
  });
  after(async () => {
    work.remove();
    await registry?.close();
    restoreEnv?.();
  });

  // A shop (inner@2 at the top, outer's own inner@1) committed with `files` beside it.
  function shop(files = {}, more = {}) {
    const repo = tempDir('perfgate-install-shop-');
    const manifest = {
      name: 'shop',
      version: '1.0.0',
      private: true,
      dependencies: { inner: '2.0.0', outer: '1.0.0' },
      ...more,
    };
    writeFileSync(join(repo, 'package.json'), JSON.stringify(manifest, null, 2));
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', ...QUIET_NPM], { cwd: repo });
    gitRepo(repo, { '.gitignore': 'node_modules/\n', ...files });
    return { repo, sha: git(repo, 'rev-parse', 'HEAD') };
  }
  const commitSide = ({ repo, sha }, label, overrides, install = ['npm', 'ci', '--ignore-scripts', ...QUIET_NPM]) =>
    prepareGitSide({
      repo,
      sha,
      ref: 'main',
      label,
      work,
      projectRoot: repo,
      install,
      overrides: overridesOf({}, overrides),
      sandboxed: true,
    });
  const nestedInner = (side) =>
    execFileSync(process.execPath, ['-p', "require('outer')"], { cwd: side.root, encoding: 'utf8' }).trim();

  test("a git override whose repository's .npmrc (and the side's) names npm's git: neither program runs, the override installs", () => {
    const outside = tempDir('perfgate-planted-');
    const label = 'git-npmrc';
    // The repository npm clones has a prepare script, so npm installs it in the clone (reading
    // its .npmrc), and a git dependency of its own, which that install fetches with "its" git.
    const repo = tempDir('perfgate-inner-git-');
    const deep = gitRepo(join(repo, 'deep'), { 'package.json': JSON.stringify({ name: 'deep', version: '1.0.0' }) });
    gitRepo(repo, {
      '.gitignore': 'deep/\n',
      'package.json': JSON.stringify({
        name: 'inner',
        version: '4.0.0',
        scripts: { prepare: 'true' },
        dependencies: { deep: `git+file://${deep}#v1` },
      }),
      '.npmrc': 'git=./x\n',
      x: planted(join(outside, 'clone-git-ran')),
    });
    chmodSync(join(repo, 'x'), 0o755);
    git(repo, 'add', 'x');
    git(repo, 'commit', '-qm', 'x', '--amend');
    git(repo, 'tag', '-f', 'v1');
    const project = shop({ '.npmrc': 'git=./x\n', x: planted(join(outside, 'side-git-ran')) });
    const side = commitSide(project, label, [`inner@git+file://${repo}#v1`]);
    assert.equal(nestedInner(side), '4.0.0');
    for (const marker of ['clone-git-ran', 'side-git-ran']) assert.equal(existsSync(join(outside, marker)), false);
    assert.equal(existsSync(join(side.root, 'side-git-ran')), false);
  });

  test('a tarball override installs in the sandbox, which sees that file', () => {
    const dir = tempDir('perfgate-tarball-');
    const tarball = join(dir, 'inner-3.0.0.tgz');
    writeFileSync(tarball, innerTarball('3.0.0').tarball);
    const side = commitSide(shop(), 'tarball', [`inner@file:${tarball}`]);
    assert.equal(nestedInner(side), '3.0.0');
    assert.match(readFileSync(side.lockfile, 'utf8'), /inner-3\.0\.0\.tgz/);
  });

  test('an override of a directory is linked by npm: refused after the install, naming the link and the fix', () => {
    const dir = tempDir('perfgate-inner-dir-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'inner', version: '5.0.0' }));
    assert.throws(
      () => commitSide(shop(), 'directory', [`inner@file:${dir}`]),
      (error) =>
        error.code === 'PG_INSTALL_FAILED' &&
        error.message.includes(`node_modules/inner -> ${dir}`) &&
        /pack it \(npm pack\) and name the \.tgz instead/.test(error.message),
    );
  });
  test("an install script reaches neither the cloud metadata address nor the runner's loopback services, directly or through the registry's route", async () => {
    // A service of the runner on loopback, outside the install's network: it must see no connection.
    const connections = [];
    const service = createServer((request, response) => response.end('secret'));
    service.on('connection', (socket) => connections.push(socket.remoteAddress));
    await new Promise((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address();
    const probe = `const http = require('node:http');
const net = require('node:net');
const proxy = new URL(process.env.HTTP_PROXY);
const settle = (request, done) => {
  request.on('timeout', () => { request.destroy(); done('timeout'); });
  request.on('error', (error) => done(error.code));
};
const direct = (host, port) => new Promise((done) => {
  const socket = net.connect({ host, port, timeout: 1000 });
  socket.on('connect', () => { socket.destroy(); done('connected'); });
  settle(socket, done);
});
const proxied = (url) => new Promise((done) => {
  const request = http.get({ host: proxy.hostname, port: proxy.port, path: url, timeout: 2000 }, (answer) => { answer.resume(); done(answer.statusCode); });
  settle(request, done);
});
const tunnel = (to) => new Promise((done) => {
  const request = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: to, timeout: 2000 });
  request.on('connect', (answer, socket) => { socket.destroy(); done(answer.statusCode); });
  settle(request, done);
  request.end();
});
(async () => {
  const seen = {
    metadata: await direct('169.254.169.254', 80),
    privateRange: await direct('10.0.0.1', 80),
    loopback: await direct('127.0.0.1', ${port}),
    proxiedMetadata: await proxied('http://169.254.169.254/latest/meta-data/'),
    proxiedLoopback: await proxied('http://127.0.0.1:${port}/'),
    tunnelMetadata: await tunnel('169.254.169.254:443'),
    tunnelLoopback: await tunnel('127.0.0.1:${port}'),
  };
  require('node:fs').writeFileSync('probe.json', JSON.stringify(seen));
})();
`;
    try {
      const project = shop({ 'probe.cjs': probe }, { scripts: { postinstall: 'node probe.cjs' } });
      const side = commitSide(project, 'network', [], ['npm', 'ci', ...QUIET_NPM]);
      assert.equal(nestedInner(side), '1.1.0', 'the registry is reachable');
      const seen = JSON.parse(readFileSync(join(side.root, 'probe.json'), 'utf8'));
      for (const key of ['metadata', 'privateRange']) assert.notEqual(seen[key], 'connected', key);
      assert.equal(seen.loopback, 'ECONNREFUSED', 'its loopback is its own');
      for (const key of ['proxiedMetadata', 'proxiedLoopback', 'tunnelMetadata', 'tunnelLoopback'])
        assert.equal(seen[key], 403, key);
      // Connections queued while the install ran synchronously are accepted by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(connections, []);
    } finally {
      service.close();
    }
  });

  test("where the harness reaches the registry through a proxy of its own, the install's route goes through it", async () => {
    const log = join(tempDir('perfgate-forward-proxy-'), 'requests.log');
    writeFileSync(log, '');
    const proxy = spawn(
      process.execPath,
      [fileURLToPath(new URL('./helpers/forward-proxy.js', import.meta.url)), log],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [port] = await once(proxy.stdout, 'data');
    const project = shop();
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${String(port).trim()}`;
    try {
      const side = commitSide(project, 'upstream', []);
      assert.equal(nestedInner(side), '1.1.0');
      assert.match(readFileSync(log, 'utf8'), new RegExp(`^GET ${registry.url}outer\\b`, 'm'));
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      proxy.kill();
    }
  });

  test("a tunnel to the registry (an https registry's) goes through the harness's proxy too, and one elsewhere is refused", async () => {
    const log = join(tempDir('perfgate-forward-proxy-'), 'requests.log');
    writeFileSync(log, '');
    const upstream = spawn(
      process.execPath,
      [fileURLToPath(new URL('./helpers/forward-proxy.js', import.meta.url)), log],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [port] = await once(upstream.stdout, 'data');
    const parent = tempDir('perfgate-route-');
    const route = openRegistryRoute(parent, [registry.url], {
      PATH: process.env.PATH,
      HTTPS_PROXY: `http://127.0.0.1:${String(port).trim()}`,
    });
    const tunnel = (to) =>
      new Promise((resolve, reject) => {
        const asked = request({ socketPath: join(route.dir, 'proxy.sock'), method: 'CONNECT', path: to });
        asked.on('connect', (answer, socket) => {
          socket.destroy();
          resolve(answer.statusCode);
        });
        asked.on('error', reject);
        asked.end();
      });
    try {
      const { host } = new URL(registry.url);
      assert.equal(await tunnel(host), 200);
      assert.equal(readFileSync(log, 'utf8'), `CONNECT ${host}\n`);
      assert.equal(await tunnel('169.254.169.254:443'), 403);
      assert.deepEqual(route.refused(), ['169.254.169.254:443']);
    } finally {
      route.close();
      upstream.kill();
    }
  });

  test("a commit's package-lock.json that links to a file of the runner is refused, and that file is neither read nor written", () => {
    const runnerFile = join(tempDir('perfgate-runner-file-'), 'credentials.json');
    writeFileSync(runnerFile, '{"token": "secret"}');
    const project = shop();
    git(project.repo, 'rm', '-q', 'package-lock.json');
    symlinkSync(runnerFile, join(project.repo, 'package-lock.json'));
    git(project.repo, 'add', 'package-lock.json');
    git(project.repo, 'commit', '-qm', 'a linked lockfile');
    const linked = { repo: project.repo, sha: git(project.repo, 'rev-parse', 'HEAD') };
    assert.throws(
      () => commitSide(linked, 'linked-lock', ['inner@1.0.0'], ['true']),
      (error) =>
        error.code === 'PG_INSTALL_FAILED' &&
        /package-lock\.json/.test(error.message) &&
        !error.message.includes('secret'),
    );
    assert.equal(readFileSync(runnerFile, 'utf8'), '{"token": "secret"}');
  });

  test('an install that needs a host other than the registry fails, naming the address it was refused', async () => {
    const service = createServer((request, response) => response.end('secret'));
    await new Promise((resolve) => service.listen(0, '127.0.0.1', resolve));
    const elsewhere = `127.0.0.1:${service.address().port}`;
    try {
      const repo = tempDir('perfgate-install-elsewhere-');
      const manifest = {
        name: 'app',
        version: '1.0.0',
        private: true,
        dependencies: { x: `http://${elsewhere}/x.tgz` },
      };
      gitRepo(repo, { 'package.json': JSON.stringify(manifest) });
      const install = ['npm', 'install', '--no-package-lock', '--ignore-scripts', ...QUIET_NPM];
      assert.throws(
        () => commitSide({ repo, sha: git(repo, 'rev-parse', 'HEAD') }, 'elsewhere', [], install),
        (error) =>
          error.code === 'PG_INSTALL_FAILED' &&
          error.message.includes(
            `it tried to reach ${elsewhere}, and a sandboxed install reaches only the npm registry`,
          ),
      );
    } finally {
      service.close();
    }
  });

  test('a file: tarball outside the repository (npm install ../lib-1.0.0.tgz) installs in a side, which the sandbox shows read-only', () => {
    const parent = tempDir('perfgate-outside-tarball-');
    writeFileSync(join(parent, 'lib-1.0.0.tgz'), packageTarball({ name: 'lib', version: '1.0.0' }).tarball);
    const repo = join(parent, 'app');
    mkdirSync(repo);
    const manifest = { name: 'app', version: '1.0.0', private: true, dependencies: { lib: 'file:../lib-1.0.0.tgz' } };
    writeFileSync(join(repo, 'package.json'), JSON.stringify(manifest, null, 2));
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', ...QUIET_NPM], { cwd: repo });
    gitRepo(repo, { '.gitignore': 'node_modules/\n' });
    const side = commitSide({ repo, sha: git(repo, 'rev-parse', 'HEAD') }, 'outside-tarball', []);
    assert.equal(JSON.parse(readFileSync(join(side.root, 'node_modules/lib/package.json'), 'utf8')).version, '1.0.0');
  });
});

// As root in a directory other users cannot pass through (/root is 0700), the sandbox's uid cannot
// reach the project's node_modules: compare says so before it fetches or prepares anything, and the
// fix it names works.
test('as root in a 0700 directory, compare fails at once naming the closed directory and a fix that works', {
  skip: (process.getuid?.() !== 0 && 'needs root') || (sandboxUnavailable() ?? false),
}, () => {
  const closed = tempDir('perfgate-closed-');
  chmodSync(closed, 0o700);
  const app = join(closed, 'app');
  mkdirSync(join(app, 'node_modules', 'lib'), { recursive: true });
  writeFileSync(join(app, 'node_modules', 'lib', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  writeFileSync(
    join(app, 'server.js'),
    "require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT);\n",
  );
  const config = {
    servers: { api: { command: ['node', 'server.js'] } },
    scenarios: { root: { path: '/', expect: { status: 200 } } },
  };
  writeFileSync(join(app, 'perfgate.config.json'), JSON.stringify(config));
  gitRepo(app, { '.gitignore': 'node_modules/\n' });
  writeFileSync(
    join(app, 'server.js'),
    "require('node:http').createServer((q, s) => s.end('ok!')).listen(process.env.PORT);\n",
  );
  git(app, 'commit', '-qam', 'change');
  const run = spawnSync(process.execPath, [COMPARE, '--base', 'main~1', '--head', 'main'], {
    cwd: app,
    encoding: 'utf8',
  });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /PG_SANDBOX_UNREACHABLE|the sandbox cannot reach/);
  assert.ok(
    run.stderr.includes(
      `which cannot pass through ${closed}; let every user pass through (not list) it: chmod o+x ${closed}`,
    ),
    run.stderr,
  );
  assert.doesNotMatch(run.stderr, /TMPDIR|preparing the sides/);
  // perfgate's own files in a closed temporary directory: there TMPDIR is the fix.
  const savedTemp = process.env.TMPDIR;
  process.env.TMPDIR = join(closed, 'tmp');
  mkdirSync(process.env.TMPDIR);
  try {
    assert.throws(() => checkSandboxReach(app), /set TMPDIR to a directory every user can pass through/);
  } finally {
    if (savedTemp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTemp;
  }
  // The fix named: the sandbox's uid then reads the project's packages.
  chmodSync(closed, 0o711);
  checkSandboxReach(app);
  // An override's tarball in a closed directory is named before anything runs too.
  const tarballs = tempDir('perfgate-closed-tarball-');
  chmodSync(tarballs, 0o700);
  writeFileSync(join(tarballs, 'lib-2.0.0.tgz'), '');
  assert.throws(
    () => checkSandboxReach(app, { base: {}, head: { lib: `file:${join(tarballs, 'lib-2.0.0.tgz')}` } }),
    (error) => error.code === 'PG_SANDBOX_UNREACHABLE' && error.message.includes(`chmod o+x ${tarballs}`),
  );
  const file = join(app, 'node_modules', 'lib', 'index.js');
  const argv = wrap(['cat', file], { readOnly: [join(app, 'node_modules')], network: 'own' }, { cwd: '/' });
  assert.equal(execFileSync(argv[0], argv.slice(1), { encoding: 'utf8' }), 'module.exports = 1;\n');
});
