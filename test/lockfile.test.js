// What the upgrade gate installs from a lockfile (bench/comparison/lockfile.js): a package's closure, every
// entry an exact registry version with sha512 integrity, and nothing npm would fetch on its own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FRAMEWORK_PACKAGES } from '../bench/github/packages.js';
import {
  installedDifferences,
  lockedSide,
  packageClosure,
  registryTarball,
  untrustedReason,
} from '../bench/comparison/lockfile.js';
import { PROJECT_ROOT } from './helpers/harness.js';

const INTEGRITY = `sha512-${'A'.repeat(86)}==`;
const entry = (version, more = {}) => ({ version, integrity: INTEGRITY, ...more });
const lockOf = (packages) => ({ lockfileVersion: 3, packages: { '': { name: 'app' }, ...packages } });

describe('packageClosure', () => {
  test('takes the package and what it needs where Node finds it, nested first, and nothing else', () => {
    const lock = lockOf({
      'node_modules/express': entry('5.1.0', { dev: true, dependencies: { qs: '^6', debug: '^4' } }),
      'node_modules/express/node_modules/qs': entry('6.14.0', { dependencies: { 'side-channel': '^1' } }),
      'node_modules/qs': entry('6.0.0'),
      'node_modules/debug': entry('4.4.0', { dependencies: { ms: '^2' }, optionalDependencies: { gone: '1' } }),
      'node_modules/ms': entry('2.1.3'),
      'node_modules/side-channel': entry('1.1.0'),
      'node_modules/unrelated': entry('1.0.0', { resolved: 'https://evil.example/u.tgz' }),
    });
    const { version, lockfile } = packageClosure(lock, 'express', 'the lock');
    assert.equal(version, '5.1.0');
    assert.deepEqual(Object.keys(lockfile.packages).sort(), [
      '',
      'node_modules/debug',
      'node_modules/express',
      'node_modules/express/node_modules/qs',
      'node_modules/ms',
      'node_modules/side-channel',
    ]);
    assert.deepEqual(lockfile.packages[''].dependencies, { express: '5.1.0' });
    assert.equal(lockfile.packages['node_modules/express'].dev, undefined, 'the closure is a production tree');
  });

  test('refuses a transitive remote tarball, git URL, local path, range, sha1 or missing integrity, naming the entry', () => {
    const cases = [
      [
        { resolved: 'https://evil.example/ms.tgz' },
        /node_modules\/ms as a remote tarball \(https:\/\/evil\.example\/ms\.tgz\)/,
      ],
      [{ resolved: 'git+https://github.com/u/ms.git#1' }, /node_modules\/ms as a git URL/],
      [{ resolved: 'github:u/ms' }, /node_modules\/ms as a git URL/],
      [{ resolved: 'file:../ms' }, /node_modules\/ms as a local path/],
      [{ link: true }, /node_modules\/ms as a local path/],
      [{ version: '^2.1.0' }, /version "\^2\.1\.0", not an exact registry version/],
      [{ integrity: 'sha1-abc=' }, /integrity sha1-abc=, not sha512/],
      [{ integrity: undefined }, /node_modules\/ms as no integrity/],
    ];
    for (const [change, message] of cases) {
      const lock = lockOf({
        'node_modules/express': entry('5.1.0', { dependencies: { ms: '^2' } }),
        'node_modules/ms': { ...entry('2.1.3'), ...change },
      });
      assert.throws(
        () => packageClosure(lock, 'express', 'the lock'),
        (error) => {
          assert.equal(error.code, 'PG_UNTRUSTED_LOCK_ENTRY');
          assert.match(error.message, /^the lock locks /);
          assert.match(error.message, message);
          return true;
        },
      );
    }
    assert.throws(
      () =>
        packageClosure(
          lockOf({ 'node_modules/express': entry('5.1.0', { dependencies: { ms: '^2' } }) }),
          'express',
          'the lock',
        ),
      /the lock locks no ms, which node_modules\/express needs/,
    );
  });

  test("accepts the registry's own tarball address, also of a scoped package and an alias", () => {
    assert.equal(
      registryTarball('@hono/node-server', '2.1.8'),
      'https://registry.npmjs.org/@hono/node-server/-/node-server-2.1.8.tgz',
    );
    assert.equal(
      untrustedReason('node_modules/express', entry('5.1.0', { resolved: registryTarball('express', '5.1.0') })),
      null,
    );
    assert.equal(
      untrustedReason(
        'node_modules/express4',
        entry('4.22.0', { name: 'express', resolved: registryTarball('express', '4.22.0') }),
      ),
      null,
    );
    assert.match(
      untrustedReason('node_modules/express', entry('5.1.0', { resolved: registryTarball('evil', '5.1.0') })),
      /a remote tarball/,
    );
  });

  test("every framework of perfgate's own lockfile has a closure the gate accepts", () => {
    const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    for (const name of FRAMEWORK_PACKAGES)
      assert.equal(
        lockedSide({ lock, manifest, name, what: 'package-lock.json' }).version,
        lock.packages[`node_modules/${name}`].version,
      );
  });
});

describe('lockedSide', () => {
  const lock = lockOf({
    'node_modules/hyper-express': entry('6.18.0', {
      dependencies: { 'uWebSockets.js': 'github:uNetworking/uWebSockets.js#v20' },
    }),
    'node_modules/uWebSockets.js': entry('3.0.6', { name: 'uwebsockets' }),
  });

  test('refuses a dependency npm would fetch from git unless an override points it at the locked registry version', () => {
    assert.throws(
      () => lockedSide({ lock, name: 'hyper-express', what: 'the lock' }),
      /the lock locks node_modules\/hyper-express as a dependency uWebSockets\.js@github:uNetworking\/uWebSockets\.js#v20, which npm would fetch/,
    );
    const side = lockedSide({
      lock,
      manifest: {
        devDependencies: { 'uWebSockets.js': 'npm:uwebsockets@3.0.6' },
        overrides: { 'uWebSockets.js': '$uWebSockets.js' },
      },
      name: 'hyper-express',
      what: 'the lock',
    });
    assert.deepEqual(side.manifest, {
      name: 'perfgate-locked-side',
      private: true,
      dependencies: { 'hyper-express': '6.18.0' },
      overrides: { 'uWebSockets.js': 'npm:uwebsockets@3.0.6' },
    });
  });

  test('refuses an override npm would fetch from git, a URL or a path, nested ones too', () => {
    for (const overrides of [
      { 'uWebSockets.js': 'github:evil/uws' },
      { express: { qs: 'https://evil.example/qs.tgz' } },
      { 'uWebSockets.js': '$uWebSockets.js' },
    ]) {
      assert.throws(
        () =>
          lockedSide({
            lock,
            manifest: { dependencies: { 'uWebSockets.js': 'file:../uws' }, overrides },
            name: 'hyper-express',
            what: 'the lock',
          }),
        /the lock's package\.json locks overrides (uWebSockets\.js|express > qs) as .*, which npm would fetch/,
      );
    }
  });

  test('what npm installed is checked against the lockfile: nothing added, nothing changed', () => {
    const { lockfile } = lockedSide({ lock: lockOf({ 'node_modules/ms': entry('2.1.3') }), name: 'ms', what: 'x' });
    assert.deepEqual(installedDifferences({ packages: { 'node_modules/ms': entry('2.1.3') } }, lockfile), []);
    assert.deepEqual(
      installedDifferences(
        { packages: { 'node_modules/ms': entry('2.1.4'), 'node_modules/evil': entry('1.0.0') } },
        lockfile,
      ),
      ['node_modules/ms is 2.1.4, locked 2.1.3', 'node_modules/evil was installed but is not locked'],
    );
    assert.deepEqual(installedDifferences({}, lockfile), ['node_modules/ms was not installed']);
  });
});
