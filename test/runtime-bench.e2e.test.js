// bench across runtimes: every benchmark once per runtime, named by its runtime only when it is
// not the default (today's trend lines keep their names), and recorded exactly in result.json,
// the github-action-benchmark files' extra text and the table. The runtimes come from a registry
// stand-in on loopback; the server reports which runtime started it.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { suiteSchema, validateSuite } from '../bench/config/schema.js';
import { DEFAULTS, SUITES } from '../bench/config/suites.js';
import { projectSchema } from '../bench/project/schema.js';
import { RUNTIME_KINDS } from '../bench/measurement/runtime/kinds.js';
import { resultProblems } from '../bench/results/schema.js';
import { expandSpecs } from '../bench/measurement/specs.js';
import { npmEnvFor, runtimeTarball, startFakeRegistry } from './helpers/fake-registry.js';
import { leftoverServers, readResult, runBench, tempDir, writeReporterConfig } from './helpers/harness.js';

const PACKAGE = RUNTIME_KINDS.node.package();

test('runtimes multiply the benchmarks, innermost, and only a runtime other than system is named', () => {
  const config = { ...DEFAULTS, ...SUITES.smoke, runtimes: ['system', 'node@24', 'bun@1.3'] };
  const ids = expandSpecs(config).map((spec) => spec.id);
  assert.deepEqual(ids.slice(0, 3), [
    'node-http hello c=4',
    'node-http hello[runtime=node@24] c=4',
    'node-http hello[runtime=bun@1.3] c=4',
  ]);
  assert.equal(ids.length, 2 * 3);
  assert.deepEqual(
    expandSpecs({ ...DEFAULTS, ...SUITES.smoke }).map((spec) => spec.id),
    ['node-http hello c=4', 'node-http json c=4'],
    'the default names are unchanged',
  );
  assert.deepEqual(SUITES.runtimes.runtimes, ['node@20', 'node@22', 'node@24', 'node@26', 'bun']);
  assert.deepEqual(SUITES.runtimes.variants, ['node-http', 'express', 'fastify']);
});

test("runtimes is a field of a suite config and of a project's perfgate.config.json", () => {
  const names = { variantNames: ['node-http'], scenarioNames: ['hello'] };
  assert.deepEqual(
    validateSuite({ variants: ['node-http'], scenarios: ['hello'], connections: [1], runtimes: ['node@24'] }, names),
    [],
  );
  const project = projectSchema({ builtInNames: ['node-http'], builtInScenarios: ['hello'] });
  assert.deepEqual(project.properties.runtimes, suiteSchema(names).properties.runtimes);
});

describe('npm run bench -- --runtime system,node@22', () => {
  let registry;
  let dir;
  let run;
  let outDir;
  before(async () => {
    dir = tempDir('perfgate-runtime-bench-');
    registry = await startFakeRegistry({
      [PACKAGE]: {
        '22.5.0': runtimeTarball({ name: PACKAGE, version: '22.5.0', executable: 'bin/node', versionLine: 'v22.5.0' }),
      },
    });
    const config = writeReporterConfig(dir, { duration: 0.5, warmup: 0 });
    outDir = join(dir, 'out');
    run = await runBench(['--config', config, '--runtime', 'system,node@22', '--out', outDir, '--no-history'], {
      env: {
        PERFGATE_RUNTIME_CACHE: join(dir, 'runtimes'),
        ...npmEnvFor(registry.url, dir),
      },
    });
  });
  after(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('both runtimes are measured and recorded as asked for and as installed', () => {
    assert.equal(run.code, 0, run.stderr);
    const result = readResult(outDir);
    assert.deepEqual(resultProblems(result), []);
    assert.deepEqual(
      result.runtimes.map(({ spec, name, version }) => [spec, name, version]),
      [
        ['system', 'node', process.versions.node],
        ['node@22', 'node', '22.5.0'],
      ],
    );
    assert.deepEqual(
      result.benchmarks.map((benchmark) => [benchmark.id, benchmark.runtime, benchmark.status]),
      [
        ['reporter hello c=2', undefined, 'ok'],
        ['reporter hello[runtime=node@22] c=2', 'node@22', 'ok'],
      ],
    );
    assert.deepEqual(leftoverServers(), []);
  });

  test('the extra text names the runtime, the table shows each side by side', () => {
    const bigger = JSON.parse(readFileSync(join(outDir, 'benchmark-action-bigger.json'), 'utf8'));
    assert.match(bigger[0].extra, /^runtime: system$/m);
    assert.match(bigger[0].extra, new RegExp(`^runtime version: node ${process.versions.node}$`, 'm'));
    assert.match(bigger[1].extra, /^runtime: node@22\nruntime version: node 22.5.0$/m);
    const table = readFileSync(join(outDir, 'table.md'), 'utf8');
    assert.match(table, /\| Server \| Runtime \| Connections \|/);
    assert.match(table, /\| reporter hello \| system \(node [\d.]+\) \| 2 \|/);
    assert.match(table, /\| reporter hello \| node 22\.5\.0 \| 2 \|/);
  });

  test('a variant of its own runtime is skipped with the reason where that runtime cannot be installed', async () => {
    // The stand-in registry has no Bun: express-bun (express on bun) is skipped, the rest runs.
    const out = join(dir, 'no-bun');
    const run = await runBench(
      [
        ...['--variant', 'express-bun,node-http', '--scenario', 'hello', '--connections', '2', '--duration', '0.3'],
        ...['--warmup', '0', '--out', out, '--no-history'],
      ],
      {
        env: {
          PERFGATE_RUNTIME_CACHE: join(dir, 'no-bun-cache'),
          ...npmEnvFor(registry.url, dir),
        },
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const [bun, nodeHttp] = readResult(out).benchmarks;
    assert.deepEqual([bun.id, bun.runtime, bun.status], ['express-bun hello c=2', 'bun', 'skipped']);
    assert.match(bun.reason, /the npm registry has no package @oven\/bun-\S+ for runtime "bun"/);
    assert.equal(nodeHttp.status, 'ok');
  });

  test('a bad runtime is one line before anything starts', async () => {
    for (const [runtime, code, says] of [
      ['bun@nonsense', 'PG_BAD_RUNTIME', /runtime "bun@nonsense" is not valid/],
      ['node@99', 'PG_RUNTIME_NOT_PUBLISHED', /no published version of \S+ matches runtime "node@99"/],
    ]) {
      const bad = await runBench(['--suite', 'smoke', '--runtime', runtime, '--no-history', '--out', join(dir, code)], {
        env: {
          ...npmEnvFor(registry.url, dir),
        },
      });
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.stderr.trim(), /^perfgate: [^\n]+$/);
      assert.match(bad.stderr, says);
      assert.equal(readResult(join(dir, code)), undefined, 'nothing ran');
    }
  });
});
