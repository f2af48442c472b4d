// Each way a server can fail: a one-line reason, the other benchmarks go on, the result
// file stays valid and no child process survives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import {
  leftoverServers,
  misbehavingCommand,
  PROJECT_ROOT,
  readResult,
  runBench,
  startBench,
  tempDir,
  writeConfig,
} from './helpers/harness.js';

const QUICK = { scenarios: ['hello'], connections: [2], duration: 1, warmup: 0, timeout: 1, readyTimeout: 3 };

async function runWith(commands, variants = Object.keys(commands)) {
  const dir = tempDir();
  const config = writeConfig(dir, { name: 'failures', variants, ...QUICK, commands });
  const run = await runBench(['--config', config, '--out', dir, '--no-history']);
  return { ...run, dir, result: readResult(dir) };
}

const byVariant = (result, variant) => result.benchmarks.find((benchmark) => benchmark.variant === variant);

describe('server failures', () => {
  after(() => assert.deepEqual(leftoverServers(), []));

  test('a server that crashes at start fails its benchmark; the next one still runs', async () => {
    const { code, result, stdout } = await runWith({
      crash: misbehavingCommand('crash'),
      fine: misbehavingCommand('ok'),
    });
    assert.equal(code, 1);
    assert.equal(byVariant(result, 'crash').status, 'failed');
    assert.equal(byVariant(result, 'crash').code, 'PG_SERVER_EXITED');
    assert.match(byVariant(result, 'crash').reason, /exited \(code 3\).*crashing on purpose/);
    assert.equal(byVariant(result, 'fine').status, 'ok');
    assert.ok(byVariant(result, 'fine').summary.requests.total > 0);
    assert.match(stdout, /\| fine hello \| 2 \|/);
  });

  test('a server that throws at start is reported with its error, not the last line of its log', async () => {
    const { result } = await runWith({ throws: misbehavingCommand('throw') });
    const { code, reason } = byVariant(result, 'throws');
    assert.equal(code, 'PG_SERVER_EXITED');
    assert.match(
      reason,
      /exited \(code 1\) while starting: Error: Cannot find module '\.\/missing-on-purpose\.js' \(its log: /,
    );
    assert.doesNotMatch(reason, /Node\.js v\d/);
  });

  test("$PORT and $HOST in a command's arguments are replaced: a server that takes only --port", async () => {
    const argvPort = misbehavingCommand('ok');
    argvPort.command = [...argvPort.command, '--port', '$PORT', '--host=${HOST}'];
    const { result } = await runWith({ 'argv-port': argvPort });
    assert.equal(byVariant(result, 'argv-port').status, 'ok', byVariant(result, 'argv-port').reason);
  });

  test('a server that never becomes ready fails after the deadline', async () => {
    const { result } = await runWith({ stuck: misbehavingCommand('never-ready') });
    assert.equal(byVariant(result, 'stuck').code, 'PG_SERVER_NOT_READY');
    assert.match(byVariant(result, 'stuck').reason, /did not become ready within 3 s/);
  });

  test('a taken port is named with how to free it', async () => {
    const holder = net.createServer();
    await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address();
    try {
      const { result } = await runWith({ fixed: { ...misbehavingCommand('ok'), port } });
      assert.equal(byVariant(result, 'fixed').code, 'PG_PORT_IN_USE');
      assert.match(byVariant(result, 'fixed').reason, new RegExp(`port ${port} is in use`));
    } finally {
      holder.close();
    }
  });

  test('a wrong answer is never measured and shows a short diff, in the terminal and in table.md', async () => {
    const { result, dir, stderr } = await runWith({ wrong: misbehavingCommand('wrong') });
    const benchmark = byVariant(result, 'wrong');
    assert.equal(benchmark.code, 'PG_WRONG_ANSWER');
    const diff = /body differs at character 7: expected "Hello World", got "Hello Wrld"/;
    assert.match(benchmark.reason, diff);
    assert.deepEqual(benchmark.runs, []);
    assert.match(stderr, diff);
    assert.match(
      readFileSync(join(dir, 'table.md'), 'utf8'),
      /\*\*wrong hello c=2\*\* failed: server "wrong" answered scenario "hello" wrongly, so it was not measured: body differs at character 7/,
    );
  });

  test('a server that exits mid-run fails that benchmark', async () => {
    const { result } = await runWith({ dies: misbehavingCommand('exit-later', { EXIT_AFTER_REQUESTS: '200' }) });
    assert.equal(byVariant(result, 'dies').code, 'PG_SERVER_EXITED');
    assert.match(byVariant(result, 'dies').reason, /exited \(code 4\) before the run finished/);
  });

  test('a server that hangs mid-run is measured with its timeouts, and the run finishes', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, {
      name: 'hang',
      variants: ['hangs'],
      ...QUICK,
      duration: 3,
      commands: { hangs: misbehavingCommand('hang-later', { HANG_AFTER_REQUESTS: '200' }) },
    });
    const { code } = await runBench(['--config', config, '--out', dir, '--no-history']);
    const benchmark = readResult(dir).benchmarks[0];
    assert.equal(code, 0);
    assert.equal(benchmark.status, 'ok');
    assert.ok(benchmark.summary.timeouts > 0, 'timeouts are counted');
    assert.ok(benchmark.summary.timeoutPct > 0);
  });
});

describe('harness interrupted', () => {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    test(`${signal} stops every server and leaves a valid result file`, async () => {
      const dir = tempDir();
      const config = writeConfig(dir, {
        name: 'interrupt',
        variants: ['slow'],
        ...QUICK,
        duration: 30,
        commands: { slow: misbehavingCommand('ok') },
      });
      const bench = startBench(['--config', config, '--out', dir, '--no-history']);
      // Wait until the load is running (the first benchmark has started).
      while (!bench.output.stderr.includes('[1/1]')) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 500));
      bench.child.kill(signal);
      const { code, stderr } = await bench.done;
      assert.equal(code, signal === 'SIGINT' ? 130 : 143);
      assert.match(stderr, new RegExp(`interrupted by ${signal}`));
      const result = readResult(dir);
      assert.equal(result.status, 'interrupted');
      assert.deepEqual(leftoverServers(), []);
    });
  }
});

describe('open-file limit', () => {
  test("a tier beyond one process's open-file limit runs over several load processes", async (t) => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    // Root may raise any limit, so run as nobody with a hard limit of 300 open files.
    const asUnprivileged =
      process.getuid() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const readable = spawnSync(asUnprivileged[0] ?? 'true', [
      ...asUnprivileged.slice(1),
      'test',
      '-r',
      `${PROJECT_ROOT}/package.json`,
    ]);
    if (readable.status !== 0)
      return t.skip('the checkout is not readable by an unprivileged user, who is needed to meet a real limit');
    const bench = spawnSync(
      'prlimit',
      [
        '--nofile=300:300',
        ...asUnprivileged,
        process.execPath,
        'scripts/bench.mjs',
        '--suite',
        'smoke',
        '--scenario',
        'hello',
        '--connections',
        '2,100',
        '--duration',
        '1',
        '--warmup',
        '0',
        '--out',
        dir,
        '--no-history',
      ],
      { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    assert.equal(bench.status, 0, bench.stderr);
    const [small, large] = readResult(dir).benchmarks;
    assert.equal(small.status, 'ok');
    assert.equal(small.runs[0].loadGenerator.processes, 1);
    // 300 files less the 256 a load process keeps for itself: 44 sockets each, so 3 processes.
    assert.equal(large.status, 'ok');
    assert.equal(large.runs[0].loadGenerator.processes, 3);
    assert.ok(large.runs[0].requests.total > 0);
  });
});
