// compare across runtimes: the same code on two runtimes in duet, and two commits each on a
// runtime of its own; a variant a side's runtime cannot run is skipped with the reason. The
// runtimes come from a registry stand-in on loopback (each a wrapper of the harness's Node that
// says its name), so these tests measure nothing but the plumbing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { RUNTIME_KINDS } from '../bench/measurement/runtime/kinds.js';
import { npmEnvFor, runtimeTarball, startFakeRegistry } from './helpers/fake-registry.js';
import { leftoverServers, PROJECT_ROOT, tempDir, writeConfig, writeReporterConfig } from './helpers/harness.js';
import { GIT_ENV, makeServersRepository } from './helpers/servers-repo.js';

const NODE = RUNTIME_KINDS.node.package();
const BUN = RUNTIME_KINDS.bun.package();
// Short rounds, few of them: the verdict does not matter here.
const QUICK = ['--duration', '0.3', '--warmup', '0', '--min-rounds', '2', '--max-rounds', '2', '--no-profile'];

let registry;
let dir;
let env;
before(async () => {
  dir = tempDir('perfgate-runtime-compare-');
  const build = (name, version, executable, versionLine) => runtimeTarball({ name, version, executable, versionLine });
  registry = await startFakeRegistry({
    [NODE]: {
      '22.5.0': build(NODE, '22.5.0', 'bin/node', 'v22.5.0'),
      '24.1.0': build(NODE, '24.1.0', 'bin/node', 'v24.1.0'),
    },
    [BUN]: { '1.3.2': build(BUN, '1.3.2', 'bin/bun', '1.3.2') },
  });
  env = {
    ...process.env,
    ...GIT_ENV,
    CI: 'true',
    GITHUB_STEP_SUMMARY: '',
    GITHUB_OUTPUT: '',
    PERFGATE_RUNTIME_CACHE: join(dir, 'runtimes'),
    ...npmEnvFor(registry.url, dir),
  };
});
after(async () => {
  await registry?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Asynchronously: the registry stand-in answers from this process.
async function compare(args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, 'scripts/compare.mjs'), ...args],
      { cwd: PROJECT_ROOT, env, maxBuffer: 16 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}
const comparisonIn = (out) => JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));

describe('the same code on two runtimes', () => {
  test('each side runs on its own runtime, recorded as asked for and as installed', async () => {
    const config = writeReporterConfig(dir);
    const out = join(dir, 'same-code');
    const run = await compare([
      '--config',
      config,
      '--runtime',
      'node@22',
      '--vs-runtime',
      'node@24',
      '--out',
      out,
      ...QUICK,
    ]);
    assert.ok([0, 1].includes(run.code), run.stderr);
    const comparison = comparisonIn(out);
    const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
    assert.ok(validate(comparison), JSON.stringify(validate.errors));
    assert.deepEqual(
      [comparison.sides.base.runtime.version, comparison.sides.head.runtime.version],
      ['22.5.0', '24.1.0'],
    );
    assert.match(comparison.sides.head.description, /on node 24\.1\.0$/);
    assert.equal(comparison.benchmarks[0].id, 'reporter hello c=2', 'a comparison names no runtime');
    assert.equal(comparison.benchmarks[0].status, 'ok');
    assert.deepEqual(leftoverServers(), []);
  });

  test("what a side's runtime cannot run is skipped with the reason", async () => {
    const config = writeConfig(dir, {
      variants: ['node-http', 'go-nethttp'],
      scenarios: ['proxy'],
      connections: [2],
      options: { proxyClient: 'undici' },
    });
    const out = join(dir, 'skipped');
    const run = await compare(['--config', config, '--vs-runtime', 'bun@1.3', '--out', out, ...QUICK]);
    assert.equal(run.code, 0, run.stderr);
    const [nodeHttp, go] = comparisonIn(out).benchmarks;
    assert.equal(nodeHttp.status, 'skipped');
    assert.match(nodeHttp.reason, /^head \(bun@1\.3\): Bun replaces the undici package .*proxyClient=undici/);
    assert.equal(go.status, 'skipped');
    assert.match(go.reason, /starts a program of its own .* runtime bun@1\.3 does not apply/);
  });

  test('two runtimes that are one, and a runtime that is no runtime, are one-line errors', async () => {
    for (const [args, says] of [
      [['--runtime', 'node@24', '--vs-runtime', 'node@24.1.0'], /are the same runtime \(node 24\.1\.0\)/],
      [['--vs-runtime', 'bun@nonsense'], /runtime "bun@nonsense" is not valid/],
      [['--vs-runtime', 'node@99'], /no published version of \S+ matches runtime "node@99"/],
    ]) {
      const run = await compare([...args, '--suite', 'smoke', '--out', join(dir, 'never')]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr.trim(), /^perfgate: [^\n]+$/);
      assert.match(run.stderr, says);
    }
  });
});

test('two commits, each on its own runtime (--base/--head with --runtime/--vs-runtime)', async () => {
  const { repo, shas } = makeServersRepository(['same']);
  try {
    const out = join(dir, 'commits');
    const run = await compare([
      ...['--repo', repo, '--base', shas[0], '--head', shas[1], '--runtime', 'node@22', '--vs-runtime', 'node@24'],
      ...['--variant', 'node-http', '--scenario', 'hello', '--connections', '2', '--out', out, ...QUICK],
    ]);
    assert.ok([0, 1].includes(run.code), run.stderr);
    const { sides, benchmarks } = comparisonIn(out);
    assert.match(sides.base.description, new RegExp(`^${shas[0]} \\(${shas[0].slice(0, 12)}\\) on node 22\\.5\\.0$`));
    assert.equal(sides.head.runtime.spec, 'node@24');
    assert.equal(benchmarks[0].status, 'ok');
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
