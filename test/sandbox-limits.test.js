// A side's limits without starting anything (test/sandbox-limits.e2e.test.js reaches them): how a
// server joins its cgroup, how each limit is named, and an install stopped at its time limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { comparisonSchema } from '../bench/comparison/schema.js';
import { byteSize } from '../bench/core/format.js';
import { inCgroup } from '../bench/measurement/sandbox/cgroup.js';
import { LIMIT_REACHED, SIDE_LIMITS, withinInstallTime } from '../bench/measurement/sandbox/limits.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';

test('a server joins its cgroup first of all, then becomes its command', () => {
  const procs = ['/sys/fs/cgroup/cpuset/g/cgroup.procs', '/sys/fs/cgroup/pids/g/cgroup.procs'];
  const argv = inCgroup({ procs }, ['taskset', '-c', '1', 'bwrap', '--', 'node', 'server.js']);
  assert.equal(argv[0], '/bin/sh');
  assert.match(argv[2], /echo \$\$ > "\$1" \|\| exit 125.*exec "\$@"$/);
  assert.deepEqual(argv.slice(3), [
    'perfgate-cgroup',
    '2',
    ...procs,
    'taskset',
    '-c',
    '1',
    'bwrap',
    '--',
    'node',
    'server.js',
  ]);
});

test('each limit reached is named with its size', () => {
  assert.equal(byteSize(2 * 1024 ** 3), '2 GiB');
  assert.equal(byteSize(16 * 1024 ** 2), '16 MiB');
  assert.equal(LIMIT_REACHED.memory(), `memory limit ${byteSize(SIDE_LIMITS.memoryBytes)} reached`);
  assert.match(LIMIT_REACHED.processes(), new RegExp(`^process limit reached \\(${SIDE_LIMITS.processes} `));
  assert.match(LIMIT_REACHED.view(), new RegExp(`^file system limit ${byteSize(SIDE_LIMITS.viewBytes)} reached`));
});

test('an install runs within its time limit, and one stopped there says so', () => {
  let asked;
  const done = withinInstallTime((limit) => {
    asked = limit;
    return { status: 0 };
  });
  assert.deepEqual(asked, { timeout: SIDE_LIMITS.installSeconds * 1000, killSignal: 'SIGKILL' });
  assert.deepEqual(done, { status: 0 });
  const stopped = withinInstallTime(() => ({
    status: null,
    signal: 'SIGKILL',
    error: Object.assign(new Error('spawnSync setpriv ETIMEDOUT'), { code: 'ETIMEDOUT' }),
  }));
  assert.equal(
    stopped.error.message,
    `the install did not finish within ${SIDE_LIMITS.installSeconds} s, its time limit`,
  );
  assert.equal(stopped.signal, 'SIGKILL');
});

test("a comparison records the limits its sides ran under, and the report's settings say them once", () => {
  const limits = 'cgroup v2: its server cores, memory 2 GiB, 2048 processes and threads';
  const sandbox = { sandboxed: true, network: 'its own addresses', limits, misbehaviour: [] };
  const comparison = {
    ...comparisonFixture(),
    sides: { base: { description: 'main', sandbox }, head: { description: 'branch', sandbox } },
    benchmarks: [],
    gate: { failed: false, failThreshold: 0.1, regressions: [], smallRegressions: [] },
  };
  const validate = new Ajv({ strict: true, strictRequired: false }).compile(comparisonSchema.properties.sides);
  assert.ok(validate(comparison.sides), JSON.stringify(validate.errors));
  assert.equal(
    validate({
      ...comparison.sides,
      head: { description: 'b', sandbox: { sandboxed: true, limits: 'x'.repeat(301) } },
    }),
    false,
  );
  const lines = comparisonMarkdown(comparison).split('\n');
  assert.deepEqual(
    lines.filter((line) => line.startsWith('- sandbox limits:')),
    [`- sandbox limits: ${limits}`],
  );
});
