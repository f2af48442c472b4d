// The CPU profile of two sandboxed sides, as root as CI runs it, from a results directory others
// cannot pass (as /root is): the head plants links to the runner's secret where its profiling
// agent writes, one named as its server's log, and swaps its profile for one. Nothing of the
// secret reaches the results, which hold only plain files the harness wrote; a profile swapped
// for a link is refused by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sandboxUnavailable } from '../bench/measurement/sandbox/bubblewrap.js';
import { runInPrivateNetwork } from '../bench/measurement/sandbox/private-network.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const SECRET = 'the-runner-token';
const STEP = new URL('./fixtures/sandbox/profile-step.js', import.meta.url);

// A side's tree: this project's servers, its node-http loading the hostile module, and the project's packages.
function sideTree() {
  const root = tempDir('perfgate-side-');
  execFileSync('cp', ['-r', join(PROJECT_ROOT, 'servers'), root]);
  execFileSync('cp', [join(PROJECT_ROOT, 'test/fixtures/sandbox/profile-hostile.js'), join(root, 'servers')]);
  const variant = join(root, 'servers/variants/node-http.js');
  writeFileSync(variant, `import '../profile-hostile.js';\n${readFileSync(variant, 'utf8')}`);
  execFileSync('ln', ['-s', join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules')]);
  return root;
}

// The servers of these trees still running (others' tests may run servers of the project's own).
const leftovers = (roots) =>
  execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => Object.values(roots).some((root) => line.includes(root)));

// Every entry under dir, and whether any is not a plain file or holds the secret.
function results(dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push({ path, plain: lstatSync(path).isFile(), secret: readFileSync(path, 'utf8').includes(SECRET) });
    }
  };
  walk(dir);
  return found;
}

describe("a sandboxed side under profiling reaches none of the runner's files", {
  skip: sandboxUnavailable() ?? false,
}, () => {
  const secretDir = mkdtempSync(join(tmpdir(), 'perfgate-secret-'));
  const secret = join(secretDir, 'token');
  writeFileSync(secret, SECRET);
  const roots = { base: sideTree(), head: sideTree() };
  // mkdtemp's 0700, as /root: only the harness passes it.
  const closedDir = () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'perfgate-closed-')), 'results');
    mkdirSync(dir);
    return dir;
  };

  test('links planted in its folder are never followed, and the profile is taken from a closed results directory', async () => {
    const outDir = closedDir();
    const { result } = await runInPrivateNetwork(STEP, 'profileTrees', {
      roots,
      headEnv: { HOSTILE_SECRET: secret },
      outDir,
    });
    assert.equal(result.skipped, undefined, result.skipped);
    assert.ok(result.files.some((file) => /head-\d+\.cpuprofile$/.test(file)));
    const written = results(outDir);
    assert.deepEqual(
      written.filter((file) => !file.plain || file.secret),
      [],
    );
    assert.ok(written.some((file) => file.path.endsWith('profile/head/server.log')));
    assert.deepEqual(leftovers(roots), []);
  });

  test('a profile swapped for a link is refused by name', async () => {
    const outDir = closedDir();
    const { result } = await runInPrivateNetwork(STEP, 'profileTrees', {
      roots,
      headEnv: { HOSTILE_SECRET: secret, HOSTILE_MODE: 'swap' },
      outDir,
    });
    assert.match(result.skipped ?? '', /profiling failed: .*\/head\/\d+\.cpuprofile is not a plain file/);
    assert.deepEqual(
      results(outDir).filter((file) => !file.plain || file.secret),
      [],
    );
    assert.deepEqual(leftovers(roots), []);
  });
});
