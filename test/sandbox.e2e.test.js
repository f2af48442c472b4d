// The sandbox's parts on their own: when the code under test may run unsandboxed, the argv that
// wraps a side's process, what of the harness's environment a side keeps, a server that writes
// its data file next to itself, and the CPU of a daemon that left its server's process group. The hostile side end to end is
// test/sandbox-hostile.e2e.test.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnGroup, stopGroup } from '../bench/measurement/process/children.js';
import { sideCommand } from '../bench/measurement/process/server.js';
import {
  sandboxDecision,
  sandboxUnavailable,
  sandboxView,
  sideSandbox,
} from '../bench/measurement/sandbox/bubblewrap.js';
import { runInPrivateNetwork } from '../bench/measurement/sandbox/private-network.js';
import { seccompFilter } from '../bench/measurement/sandbox/seccomp.js';
import { processesIn, sandboxPidNamespace } from '../bench/measurement/sandbox/processes.js';
import { closeView } from '../bench/measurement/sandbox/view.js';
import { readGroups } from '../bench/measurement/sampling/proc.js';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const MISSING = 'bubblewrap is not installed (Debian package bubblewrap)';
const RUNNER = { CI: 'true', GITHUB_ACTIONS: 'true' };

test('without bubblewrap: one line locally, refused on a runner unless the workflow opts out', () => {
  assert.deepEqual(sandboxDecision({}, null), { sandboxed: true });
  const local = sandboxDecision({}, MISSING);
  assert.equal(local.sandboxed, false);
  assert.match(
    local.note,
    /^sandbox: none, the code under test runs as the runner's user: bubblewrap is not installed/,
  );
  assert.equal(local.note.includes('\n'), false);
  assert.throws(
    () => sandboxDecision(RUNNER, MISSING),
    (error) =>
      error.code === 'PG_SANDBOX_REQUIRED' &&
      /bubblewrap is not installed/.test(error.message) &&
      /PERFGATE_ALLOW_UNSANDBOXED=true/.test(error.message),
  );
  assert.equal(sandboxDecision({ ...RUNNER, PERFGATE_ALLOW_UNSANDBOXED: 'true' }, MISSING).sandboxed, false);
  // CI alone (another CI system) is not a GitHub runner: the local rule applies.
  assert.equal(sandboxDecision({ CI: 'true' }, MISSING).sandboxed, false);
});

test("a side's process: a root of its own with a copy of its tree, its packages read-only, a scratch directory, namespaces, pinning outermost, the harness's environment left out", () => {
  const root = tempDir();
  mkdirSync(join(root, 'servers'));
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'servers', 'server.js'), '');
  const sandbox = { ...sideSandbox({ label: 'head', root }), network: 'own' };
  const view = sandboxView(sandbox);
  const previous = process.env.GITHUB_TOKEN;
  process.env.GITHUB_TOKEN = 'secret';
  try {
    const { argv, env } = sideCommand(
      [process.execPath, 'server.js'],
      { sandbox, env: { NODE_ENV: 'production' }, cwd: root },
      { plan: { method: 'taskset', server: [1], load: [0] }, view, env: { PORT: '0' } },
    );
    assert.deepEqual(argv.slice(0, 3), ['taskset', '-c', '1']);
    const bwrap = argv.slice(argv.indexOf('bwrap'));
    for (const flag of ['--unshare-user', '--unshare-pid', '--die-with-parent', '--disable-userns'])
      assert.ok(bwrap.includes(flag), flag);
    assert.ok(bwrap.includes('--unshare-net'));
    const pairs = (flag) =>
      bwrap.flatMap((arg, index) => (arg === flag ? [`${bwrap[index + 1]} ${bwrap[index + 2]}`] : []));
    // The tree is a copy in the process's own root; its packages are the side's, read-only.
    assert.ok(existsSync(join(view.root, root, 'servers', 'server.js')));
    assert.ok(!pairs('--ro-bind').includes(`${root} ${root}`));
    assert.ok(pairs('--ro-bind').includes(`${root}/node_modules ${root}/node_modules`));
    assert.deepEqual(pairs('--bind'), [`${view.root} /`, `${view.scratch} ${view.scratch}`]);
    assert.ok(!bwrap.includes('--remount-ro'));
    assert.ok(!pairs('--ro-bind').some((pair) => pair.startsWith('/root') || pair.startsWith('/home')));
    assert.deepEqual(bwrap.slice(-2), [process.execPath, 'server.js']);
    if (process.getuid() === 0) assert.ok(argv.includes('--reuid=65534'), 'root drops to an unprivileged uid');
    assert.equal(env.GITHUB_TOKEN, undefined);
    assert.equal(env.NODE_ENV, 'production');
    assert.equal(env.PORT, '0');
    assert.equal(env.HOME, view.scratch);
  } finally {
    closeView(view);
    if (previous === undefined) delete process.env.GITHUB_TOKEN;
    else process.env.GITHUB_TOKEN = previous;
  }
  // A server shares the network it starts in, which must be perfgate's private one.
  assert.throws(
    () => sideCommand(['server'], { sandbox: sideSandbox({ label: 'head', root }) }),
    /must start inside the private network namespace/,
  );
});

test('a side whose node_modules links into the project can read what it links to', () => {
  const project = tempDir();
  mkdirSync(join(project, 'node_modules', 'left-pad'), { recursive: true });
  const root = tempDir();
  spawnSync('ln', ['-s', join(project, 'node_modules'), join(root, 'node_modules')]);
  writeFileSync(join(root, 'package.json'), '{}');
  const sandbox = sideSandbox({ label: 'base', root });
  assert.equal(sandbox.tree, root);
  assert.deepEqual(sandbox.readOnly, [join(project, 'node_modules')]);
});

test('a sandboxed process sees no network but loopback and none of the harness', {
  skip: sandboxUnavailable() ?? false,
}, () => {
  const root = tempDir();
  const { argv, env } = sideCommand(
    [
      process.execPath,
      '-e',
      "console.log(Object.keys(require('os').networkInterfaces()).join(), require('fs').existsSync(process.argv[1]))",
      process.cwd(),
    ],
    { sandbox: { ...sideSandbox({ label: 'head', root }), network: 'own' } },
  );
  const run = spawnSync(argv[0], argv.slice(1), { env, encoding: 'utf8' });
  assert.equal(run.stdout.trim(), 'lo false', run.stderr);
});

test('a sandboxed process makes no user namespace, and has a session of its own (no terminal to type into)', {
  skip: sandboxUnavailable() ?? false,
}, () => {
  const probe = [
    "const { spawnSync } = require('child_process');",
    "const [, , , session] = require('fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');",
    // A session led from outside the PID namespace reads as 0 in it.
    "console.log(spawnSync('unshare', ['-U', 'true']).status, Number(session) > 0);",
  ].join(' ');
  const { argv, env } = sideCommand([process.execPath, '-e', probe], {
    sandbox: { ...sideSandbox({ label: 'head', root: tempDir() }), network: 'own' },
  });
  const run = spawnSync(argv[0], argv.slice(1), { env, encoding: 'utf8' });
  assert.equal(run.stdout.trim(), '1 true', run.stderr);
});

test('a sandboxed process is refused the system calls of the filter, with an error', {
  skip: sandboxUnavailable() ?? seccompFilter().reason ?? false,
}, () => {
  // Each call's number for this machine, from libseccomp; errno 1 is EPERM, 38 ENOSYS.
  const probe = [
    'import ctypes, seccomp',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'def call(name, *args):',
    '    result = libc.syscall(seccomp.resolve_syscall(seccomp.Arch.NATIVE, name), *args)',
    '    return f"{name} {result} {ctypes.get_errno()}"',
    "print(call('keyctl', 0, -3, 0), call('io_uring_setup', 1, 0), sep=', ')",
  ].join('\n');
  const { argv, env } = sideCommand(['/usr/bin/python3', '-c', probe], {
    sandbox: { ...sideSandbox({ label: 'head', root: tempDir() }), network: 'own' },
  });
  const run = spawnSync(argv[0], argv.slice(1), { env, encoding: 'utf8' });
  assert.equal(run.stdout.trim(), 'keyctl -1 1, io_uring_setup -1 38', run.stderr);
});

test('a daemon that leaves its process group still counts in the server CPU sampled, and dies with the sandbox', {
  skip: sandboxUnavailable() ?? false,
}, async () => {
  // The sandboxed process starts a busy daemon in a session of its own, then idles.
  const daemon =
    "require('child_process').spawn(process.execPath, ['-e', 'for(;;){}'], { detached: true, stdio: 'ignore' }).unref(); setInterval(() => {}, 1000);";
  const { argv, env } = sideCommand(
    [process.execPath, '-e', daemon],
    { sandbox: { ...sideSandbox({ label: 'head', root: tempDir() }), network: 'own' } },
    { detached: true },
  );
  const group = spawnGroup(argv, { env });
  try {
    let namespace;
    for (let tries = 0; tries < 100 && !namespace; tries++) {
      await sleep(50);
      const found = sandboxPidNamespace(group.child.pid);
      if (found && processesIn('pid', found).length >= 3) namespace = found;
    }
    assert.ok(namespace, 'the sandbox and its daemon started');
    const before = { group: readGroups([group.child.pid]), all: readGroups([group.child.pid], [namespace]) };
    await sleep(1500);
    const grew = (reading, key) => reading.cpuTicks - before[key].cpuTicks;
    const groupOnly = grew(readGroups([group.child.pid]), 'group');
    const withNamespace = grew(readGroups([group.child.pid], [namespace]), 'all');
    assert.ok(withNamespace > groupOnly + 5, `namespace ${withNamespace} ticks, group only ${groupOnly}`);
    await stopGroup(group);
    for (let tries = 0; tries < 40 && processesIn('pid', namespace).length; tries++) await sleep(50);
    assert.deepEqual(processesIn('pid', namespace), []);
  } finally {
    await stopGroup(group);
  }
});

test('a server that writes its data file next to itself works sandboxed, in a copy of its tree made afresh for each server; a write elsewhere is reported, and reaches nothing', {
  skip: sandboxUnavailable() ?? false,
}, async () => {
  const tree = tempDir();
  for (const file of ['data-writer.js', 'db.json'])
    cpSync(join(PROJECT_ROOT, 'test/fixtures/sandbox', file), join(tree, file));
  const committed = readFileSync(join(tree, 'db.json'), 'utf8');
  const strayPath = join(dirname(tree), `perfgate-stray-${process.pid}`);
  const { result } = await runInPrivateNetwork(
    new URL('./fixtures/sandbox/writer-step.js', import.meta.url),
    'startTwice',
    { tree, logFile: join(tempDir(), 'server.log'), strayPath },
  );
  // Each server wrote at start and on each request, and the second began from the tree as committed.
  const first = { starts: 1, requests: 1 };
  assert.deepEqual(result.runs, [
    [first, { starts: 1, requests: 2 }, { starts: 1, requests: 3 }],
    [first, {}],
  ]);
  assert.equal(readFileSync(join(tree, 'db.json'), 'utf8'), committed);
  assert.equal(existsSync(strayPath), false);
  assert.equal(result.misbehaviour.length, 1, result.misbehaviour.join('\n'));
  assert.match(result.misbehaviour[0], /^wrote outside its tree and scratch directory \(into a throwaway copy/);
  assert.ok(result.misbehaviour[0].includes(strayPath), result.misbehaviour[0]);
});
