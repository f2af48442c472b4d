// The variants that start programs of their own (nginx and its upstreams, the database,
// the JVM) leave nothing behind, whether the run succeeds, fails or is interrupted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { loadBuiltInVariant } from '../bench/measurement/variants.js';
import { databaseUnavailable } from '../bench/measurement/database.js';
import { readResult, runBench, startBench, tempDir, writeConfig } from './helpers/harness.js';
import { ownLines } from './helpers/test-processes.js';

const OWN_PROGRAMS = /nginx|postgres|java|servers\/launch\.js|cluster-worker/;
const livePrograms = () =>
  new Map(
    ownLines(execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n'))
      .map((line) => line.trim())
      .filter((line) => OWN_PROGRAMS.test(line))
      .map((line) => [line.split(' ')[0], line]),
  );
// Processes that match and were not there before the run.
function leftSince(before) {
  return [...livePrograms()].filter(([pid]) => !before.has(pid)).map(([, line]) => line);
}
// A process group may take a moment to be reaped after the harness has exited.
async function assertNothingLeft(before) {
  for (let wait = 0; wait < 20 && leftSince(before).length; wait++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(leftSince(before), []);
}

const QUICK = ['--connections', '10', '--duration', '0.3', '--warmup', '0', '--no-history'];
const CASES = [
  {
    name: 'nginx over 2 node processes',
    variant: 'nginx-upstream-2',
    scenario: 'hello',
    suite: 'multicore',
    running: /nginx: worker/,
  },
  {
    name: 'koa with a PostgreSQL pool',
    variant: 'koa-pg',
    scenario: 'db',
    suite: 'node-vs-java',
    needsDatabase: true,
    running: /launch\.js koa-pg/,
  },
  { name: 'the JVM of Tomcat', variant: 'tomcat', scenario: 'hello', suite: 'frameworks', running: /java/ },
];

async function skipReason(variantName, needsDatabase) {
  return (await loadBuiltInVariant(variantName)).unavailable ?? (needsDatabase ? databaseUnavailable() : null);
}

for (const { name, variant, scenario, suite, needsDatabase, running } of CASES) {
  describe(`${name}: the whole process group is cleaned up`, () => {
    const args = ['--suite', suite, '--variant', variant, '--scenario', scenario];
    // Runs `check` in a fresh results directory, then asserts that it left nothing behind.
    const cleanRun = (check) => async (t) => {
      const reason = await skipReason(variant, needsDatabase);
      if (reason) return t.skip(reason);
      const before = livePrograms();
      await check(tempDir(), before);
      await assertNothingLeft(before);
    };

    test(
      'on success',
      cleanRun(async (out) => {
        const { code, stderr } = await runBench([...args, ...QUICK, '--out', out]);
        assert.equal(code, 0, stderr);
        assert.equal(readResult(out).benchmarks[0].status, 'ok');
      }),
    );

    test(
      'on failure (never ready in time)',
      cleanRun(async (out) => {
        const config = writeConfig(out, {
          name: 'too-slow',
          variants: [variant],
          scenarios: [scenario],
          connections: [10],
          duration: 1,
          warmup: 0,
          readyTimeout: 0.05,
        });
        const { code } = await runBench(['--config', config, '--out', out, '--no-history']);
        assert.equal(code, 1);
        assert.equal(readResult(out).benchmarks[0].status, 'failed');
      }),
    );

    test(
      'on SIGINT mid-run',
      cleanRun(async (out, before) => {
        const bench = startBench([
          ...args,
          '--connections',
          '10',
          '--duration',
          '30',
          '--warmup',
          '0',
          '--no-history',
          '--out',
          out,
        ]);
        // Interrupt once the variant's own program runs, and a little later, mostly under load.
        while (!leftSince(before).some((line) => running.test(line)) && bench.child.exitCode === null)
          await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, 2000));
        bench.child.kill('SIGINT');
        const { code } = await bench.done;
        assert.equal(code, 130);
        assert.equal(readResult(out).status, 'interrupted');
      }),
    );
  });
}
