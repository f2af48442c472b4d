// A stand-in for the npm registry on loopback: packuments and tarballs built in the test, served
// to npm itself (npm_config_registry), with a log of what was asked for. Runtime packages get a
// bin/ that is a shell script: `--version` prints the version, anything else runs the harness's
// Node with PERFGATE_FAKE_RUNTIME set, so a server can tell which runtime started it.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {{name: string, executable: string, versionLine: string, env?: string}} runtime
 *   versionLine: what `--version` prints (a broken build prints something else)
 */
export function runtimeTarball({ name, version, executable, versionLine }) {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-fake-pkg-'));
  try {
    mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name, version }));
    writeFileSync(join(dir, 'package', 'LICENSE'), 'test fixture\n');
    const bin = join(dir, 'package', executable);
    writeFileSync(
      bin,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "${versionLine}"; exit 0; fi\n` +
        `PERFGATE_FAKE_RUNTIME="${name}@${version}" exec "${process.execPath}" "$@"\n`,
    );
    chmodSync(bin, 0o755);
    execFileSync('tar', ['-czf', join(dir, 'package.tgz'), '-C', dir, 'package']);
    return readFileSync(join(dir, 'package.tgz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// An ordinary package's tarball: its package.json and the files given ({ 'index.js': '...' }).
export function packageTarball(manifest, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-fake-pkg-'));
  try {
    mkdirSync(join(dir, 'package'));
    writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(manifest));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'package', file), text);
    execFileSync('tar', ['-czf', join(dir, 'package.tgz'), '-C', dir, 'package']);
    return { tarball: readFileSync(join(dir, 'package.tgz')), dependencies: manifest.dependencies };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A package `inner` of the given version, with nothing in it.
export const innerTarball = (version) => packageTarball({ name: 'inner', version });

// The registry's packages of a project whose own inner@2 leaves outer (which needs inner ^1.0.0
// and exports the version of inner it requires) a nested copy of inner@1.
export const nestedInnerPackages = () => ({
  inner: { '1.0.0': innerTarball('1.0.0'), '1.1.0': innerTarball('1.1.0'), '2.0.0': innerTarball('2.0.0') },
  outer: {
    '1.0.0': packageTarball(
      { name: 'outer', version: '1.0.0', main: 'index.js', dependencies: { inner: '^1.0.0' } },
      { 'index.js': "module.exports = require('inner/package.json').version;\n" },
    ),
  },
});

// The environment that sends npm (and perfgate's runtime installs) to `registryUrl`, with its own
// cache under `dir` and no retries, so a test fails fast instead of waiting on npm's backoff.
export const npmEnvFor = (registryUrl, dir) => ({
  npm_config_registry: registryUrl,
  npm_config_cache: join(dir, 'npm-cache'),
  npm_config_fetch_retries: '0',
});

/**
 * @param {Record<string, Record<string, Buffer | {tarball: Buffer, dependencies: object}>>} packages
 *   name -> version -> tarball (and the dependencies its packument names; packageTarball makes both)
 * @returns {Promise<{url: string, requests: string[], close: () => Promise<void>}>}
 */
export async function startFakeRegistry(packages) {
  const requests = [];
  const tarballs = new Map();
  const server = createServer((request, response) => {
    const path = decodeURIComponent(request.url.split('?')[0]);
    requests.push(path);
    if (tarballs.has(path)) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(tarballs.get(path));
      return;
    }
    const name = path.slice(1);
    if (!packages[name]) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"Not found"}');
      return;
    }
    const { port } = server.address();
    const versions = {};
    for (const [version, given] of Object.entries(packages[name])) {
      const { tarball, dependencies } = Buffer.isBuffer(given) ? { tarball: given } : given;
      const file = `/${name}/-/${name.split('/').at(-1)}-${version}.tgz`;
      tarballs.set(file, tarball);
      versions[version] = {
        name,
        version,
        ...(dependencies ? { dependencies } : {}),
        dist: {
          tarball: `http://127.0.0.1:${port}${file}`,
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          shasum: createHash('sha1').update(tarball).digest('hex'),
        },
      };
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ name, 'dist-tags': { latest: Object.keys(versions).at(-1) }, versions }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * startFakeRegistry in a process of its own (fake-registry-process.js), for code that runs npm
 * synchronously. Same packages; returns { url, close }.
 */
export async function startFakeRegistryProcess(packages) {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-fake-registry-'));
  const file = join(dir, 'packages.json');
  const encoded = Object.fromEntries(
    Object.entries(packages).map(([name, versions]) => [
      name,
      Object.fromEntries(
        Object.entries(versions).map(([version, given]) => {
          const { tarball, dependencies } = Buffer.isBuffer(given) ? { tarball: given } : given;
          return [version, { tarball: tarball.toString('base64'), dependencies }];
        }),
      ),
    ]),
  );
  writeFileSync(file, JSON.stringify(encoded));
  const child = spawn(process.execPath, [new URL('fake-registry-process.js', import.meta.url).pathname, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => resolve(String(data).trim()));
    child.once('exit', (code) => reject(new Error(`the registry stand-in exited (${code})`)));
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
