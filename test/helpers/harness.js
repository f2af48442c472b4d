// Runs the real `npm run bench` entry point as a child process, for the harness's
// end-to-end tests, and finds processes a run may have left behind.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownLines } from './test-processes.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MISBEHAVING = join(PROJECT_ROOT, 'test/fixtures/servers/misbehaving.js');

export const HELLO_REQUEST = {
  path: '/hello',
  expect: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'Hello World' },
};

// A suite variant running test/fixtures/servers/misbehaving.js in the given mode.
export function misbehavingCommand(mode, env = {}) {
  return { command: [process.execPath, MISBEHAVING], env: { MODE: mode, ...env }, scenarios: { hello: HELLO_REQUEST } };
}

// Passable by others (not readable): run as root, perfgate's sandbox binds a side's directories
// as an unprivileged uid, which must pass through every directory above them.
// Short rounds of /hello at 10 connections, for e2e comparisons whose slowdown is many times over:
// what they test is the flow, not how small a change it can see.
export const QUICK_HELLO = ['--scenario', 'hello', '--connections', '10', '--duration', '0.5', '--warmup', '0.2'];

// Removed when the test file's process exits, so that a suite run leaves nothing in the temp dir.
const made = [];
process.once('exit', () => {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Something still holds it (a mount, a process another file awaits): the OS's temp cleanup takes it.
    }
  }
});

export function tempDir(prefix = 'perfgate-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  made.push(dir);
  return dir;
}

export function writeConfig(dir, config) {
  const file = join(dir, 'suite.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

// A one-variant suite of test/fixtures/servers/runtime-reporter.js, a server that answers which
// runtime started it (`node` on PATH, so the side's runtime); `settings` adds duration, warmup, ...
export function writeReporterConfig(dir, settings = {}) {
  const reporter = join(PROJECT_ROOT, 'test/fixtures/servers/runtime-reporter.js');
  return writeConfig(dir, {
    name: 'reporter',
    variants: ['reporter'],
    scenarios: ['hello'],
    connections: [2],
    ...settings,
    commands: {
      reporter: { command: ['node', reporter], scenarios: { hello: { path: '/', expect: { status: 200 } } } },
    },
  });
}

// Starts `node scripts/bench.mjs args` and returns the child with its collected output.
export function startBench(args, { env = {} } = {}) {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/bench.mjs'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const done = once(child, 'exit').then(([code, signal]) => ({ code, signal, ...output }));
  return { child, output, done };
}

export async function runBench(args, options) {
  const { done } = startBench(args, options);
  return done;
}

export function readResult(outDir) {
  const file = join(outDir, 'result.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

// Sets variables of this process's environment (what the code under test reads in-process) and
// returns what puts each back as it was, unset where it was unset.
export function setProcessEnv(values) {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  };
}

// Whether any process of the group led by `pid` is still there (a group's children included).
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Command lines of live processes started from this project's servers or fixtures, by this test
// file or orphaned (another e2e file's running servers are its own business).
export function leftoverServers() {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ownLines(
    listing
      .split('\n')
      .filter(
        (line) =>
          line.includes(PROJECT_ROOT) &&
          (line.includes('servers/launch.js') ||
            line.includes('servers/workers/cluster-worker.js') ||
            line.includes('fixtures/servers/')),
      ),
  );
}
