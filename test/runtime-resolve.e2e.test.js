// Runtime resolution and the runtime cache against a registry stand-in on loopback (npm itself
// talks to it): a major, an exact version and a range resolve to the newest match, installs are
// reused, and every kind of bad input is one clear error that leaves nothing in the cache.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { stageRuntime } from '../bench/measurement/runtime/cache.js';
import { RUNTIME_KINDS } from '../bench/measurement/runtime/kinds.js';
import {
  onRuntime,
  parseRuntimeSpec,
  resolveRuntime,
  runtimeCacheDir,
  SYSTEM_RUNTIME,
} from '../bench/measurement/runtime/resolve.js';
import { npmEnvFor, runtimeTarball, startFakeRegistry } from './helpers/fake-registry.js';

const NODE_PACKAGE = RUNTIME_KINDS.node.package();
const BUN_PACKAGE = RUNTIME_KINDS.bun.package();
const nodeBuild = (version, versionLine = `v${version}`) =>
  runtimeTarball({ name: NODE_PACKAGE, version, executable: 'bin/node', versionLine });

let registry;
let scratch;
const savedEnv = {};
const npmEnv = (registryUrl) => ({ ...npmEnvFor(registryUrl, scratch), npm_config_fetch_timeout: '5000' });
function useEnv(values) {
  for (const [key, value] of Object.entries(values)) {
    if (!(key in savedEnv)) savedEnv[key] = process.env[key];
    process.env[key] = value;
  }
}
let cacheCount = 0;
const freshCache = () => join(scratch, `cache-${++cacheCount}`);
const contents = (dir) => (existsSync(dir) ? readdirSync(dir).sort() : []);

async function rejectsWith(promise, code) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.code, code, error.message);
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return true;
  });
}

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'perfgate-runtime-test-'));
  registry = await startFakeRegistry({
    [NODE_PACKAGE]: {
      '22.1.0': nodeBuild('22.1.0'),
      '22.3.0': nodeBuild('22.3.0'),
      '24.0.0': nodeBuild('24.0.0'),
      '24.2.0': nodeBuild('24.2.0'),
      '25.0.0-rc.1': nodeBuild('25.0.0-rc.1'),
      '21.0.0': nodeBuild('21.0.0', 'v0.0.0-not-what-was-asked'),
    },
    [BUN_PACKAGE]: {
      '1.3.2': runtimeTarball({ name: BUN_PACKAGE, version: '1.3.2', executable: 'bin/bun', versionLine: '1.3.2' }),
    },
  });
  useEnv(npmEnv(registry.url));
});

after(async () => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await registry?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('runtime specs', () => {
  test('system, a major, an exact version, a range and a bare name parse; the rest is refused in one line', () => {
    assert.deepEqual(parseRuntimeSpec('system'), { text: 'system', system: true });
    assert.deepEqual(parseRuntimeSpec('node@24'), { text: 'node@24', name: 'node', range: '24', exact: false });
    assert.equal(parseRuntimeSpec('node@22.11.0').exact, true);
    assert.equal(parseRuntimeSpec('node@>=22 <24').range, '>=22 <24');
    assert.equal(parseRuntimeSpec('bun').range, '*');
    for (const bad of ['bun@nonsense', 'deno@2', 'node@', '']) {
      assert.throws(
        () => parseRuntimeSpec(bad),
        (error) => error.code === 'PG_BAD_RUNTIME' && !error.message.includes('\n'),
      );
    }
  });

  test('the cache moves with PERFGATE_RUNTIME_CACHE, else follows XDG_CACHE_HOME, else ~/.cache', () => {
    assert.equal(runtimeCacheDir({ PERFGATE_RUNTIME_CACHE: '/x/rt', XDG_CACHE_HOME: '/y' }), '/x/rt');
    assert.equal(runtimeCacheDir({ XDG_CACHE_HOME: '/y' }), '/y/perfgate/runtimes');
    assert.match(runtimeCacheDir({}), /\.cache\/perfgate\/runtimes$/);
  });

  test('system is the Node.js that runs perfgate, and changes no argv', () => {
    assert.equal(SYSTEM_RUNTIME.binary, process.execPath);
    const command = [process.execPath, 'server.js'];
    assert.deepEqual(onRuntime(command, { PATH: '/usr/bin' }, SYSTEM_RUNTIME), { command, env: { PATH: '/usr/bin' } });
  });
});

describe('resolving against the registry', () => {
  test('a major resolves to its newest release, is installed, checked and recorded exactly', async () => {
    const cacheDir = freshCache();
    const runtime = await resolveRuntime('node@24', { cacheDir });
    assert.equal(runtime.version, '24.2.0');
    assert.equal(runtime.spec, 'node@24');
    assert.equal(runtime.package, NODE_PACKAGE);
    assert.ok(runtime.binary.startsWith(cacheDir));
    const ran = spawnSync(runtime.binary, ['-p', 'process.env.PERFGATE_FAKE_RUNTIME'], { encoding: 'utf8' });
    assert.equal(ran.stdout.trim(), `${NODE_PACKAGE}@24.2.0`);
    assert.deepEqual(contents(cacheDir), [`${NODE_PACKAGE}@24.2.0`], 'no temporary directory left');
    // On the runtime: the harness's Node replaced, the runtime's bin first on PATH; other argv kept.
    const { command, env } = onRuntime([process.execPath, 'server.js'], { PATH: '/usr/bin' }, runtime);
    assert.deepEqual(command, [runtime.binary, 'server.js']);
    assert.equal(env.PATH, `${join(cacheDir, `${NODE_PACKAGE}@24.2.0`, 'bin')}:/usr/bin`);
    assert.deepEqual(onRuntime(['go-server'], {}, runtime).command, ['go-server']);
  });

  test('an exact version and a range resolve to what they name (prereleases only when asked)', async () => {
    const cacheDir = freshCache();
    assert.equal((await resolveRuntime('node@22.1.0', { cacheDir })).version, '22.1.0');
    assert.equal((await resolveRuntime('node@>=22 <24', { cacheDir })).version, '22.3.0');
    assert.equal((await resolveRuntime('node@>=24', { cacheDir })).version, '24.2.0');
  });

  test('an installed runtime is reused: no second download, and an exact one needs no registry', async () => {
    const cacheDir = freshCache();
    await resolveRuntime('node@22', { cacheDir });
    const tarballs = () => registry.requests.filter((path) => path.endsWith('.tgz')).length;
    const packuments = () => registry.requests.filter((path) => !path.endsWith('.tgz')).length;
    const [downloaded, asked] = [tarballs(), packuments()];
    assert.equal((await resolveRuntime('node@22', { cacheDir })).version, '22.3.0');
    assert.equal(tarballs(), downloaded, 'the range asked the registry but downloaded nothing');
    assert.equal((await resolveRuntime('node@22.3.0', { cacheDir })).version, '22.3.0');
    assert.equal(packuments(), asked + 1, 'the exact version did not ask the registry');
  });

  test('bun installs from its per-platform package like node, and answers to `node` too', async () => {
    const cacheDir = freshCache();
    const runtime = await resolveRuntime('bun@1.3', { cacheDir });
    assert.equal(runtime.version, '1.3.2');
    assert.equal(runtime.name, 'bun');
    assert.match(runtime.binary, /bin\/bun$/);
    assert.equal(readlinkSync(join(dirname(runtime.binary), 'node')), 'bun');
    // Staged for a sandbox: the same files (hard links), the alias kept, in a directory of its own.
    const work = join(scratch, 'work');
    mkdirSync(work);
    const staged = stageRuntime(runtime, work);
    assert.ok(staged.binary.startsWith(`${work}/`));
    assert.equal(statSync(staged.binary).ino, statSync(runtime.binary).ino);
    assert.equal(readlinkSync(join(dirname(staged.binary), 'node')), 'bun');
  });
});

describe('bad input: one line, before anything starts, nothing left in the cache', () => {
  test('node@99 is not published', async () => {
    const cacheDir = freshCache();
    await rejectsWith(resolveRuntime('node@99', { cacheDir }), 'PG_RUNTIME_NOT_PUBLISHED');
    assert.deepEqual(contents(cacheDir), []);
  });

  test('bun@nonsense is no version', async () => {
    await rejectsWith(resolveRuntime('bun@nonsense', { cacheDir: freshCache() }), 'PG_BAD_RUNTIME');
  });

  test('a build whose --version is not the version asked for is refused and removed', async () => {
    const cacheDir = freshCache();
    await rejectsWith(resolveRuntime('node@21', { cacheDir }), 'PG_RUNTIME_BROKEN');
    assert.deepEqual(contents(cacheDir), [], 'no half-installed runtime, no temporary directory');
  });

  test('an unreachable registry with an empty cache; with a cached match, that one is used', async () => {
    const cacheDir = freshCache();
    await resolveRuntime('node@22.1.0', { cacheDir });
    const closed = await startFakeRegistry({});
    await closed.close();
    useEnv({ npm_config_registry: closed.url });
    try {
      await rejectsWith(resolveRuntime('node@24', { cacheDir: freshCache() }), 'PG_RUNTIME_REGISTRY');
      assert.equal((await resolveRuntime('node@22', { cacheDir })).version, '22.1.0');
      assert.deepEqual(contents(cacheDir), [`${NODE_PACKAGE}@22.1.0`]);
    } finally {
      useEnv({ npm_config_registry: registry.url });
    }
  });

  test('a cache directory that is not writable', async () => {
    const cacheDir = freshCache();
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o555);
    chmodSync(scratch, 0o755);
    const npmCache = join(scratch, 'npm-cache-user');
    mkdirSync(npmCache, { mode: 0o777 });
    chmodSync(npmCache, 0o777);
    // root writes anywhere: the resolution then runs as an unprivileged user
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const script = `import(${JSON.stringify(new URL('../bench/measurement/runtime/resolve.js', import.meta.url).href)})
      .then((m) => m.resolveRuntime('node@24', { cacheDir: ${JSON.stringify(cacheDir)} }))
      .then(() => console.log('installed'), (error) => console.log(error.code, error.message));`;
    // asynchronously: the registry stand-in answers from this process
    const ran = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, HOME: scratch, npm_config_cache: npmCache },
      ...asUser,
    });
    assert.match(ran.stdout, /^PG_RUNTIME_CACHE /, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /PERFGATE_RUNTIME_CACHE/);
    assert.deepEqual(contents(cacheDir), []);
  });
});
