// `npm run dev`: a smoke load on start, again when servers/ changes, and nothing left on stop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { leftoverServers, PROJECT_ROOT } from './helpers/harness.js';

const waitFor = async (read, pattern) => {
  while (!pattern.test(read())) await new Promise((resolve) => setTimeout(resolve, 100));
};

test('npm run dev re-runs the smoke load when a server file changes', { timeout: 60000 }, async () => {
  const child = spawn(process.execPath, ['scripts/dev.mjs', '--variant', 'node-http'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  try {
    await waitFor(() => output, /\| node-http hello \| 10 \|/);
    const now = new Date();
    utimesSync(join(PROJECT_ROOT, 'servers/contract/contract.js'), now, now);
    await waitFor(() => output, /\| node-http hello \| 10 \|[\s\S]*\| node-http hello \| 10 \|/);
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await once(child, 'exit');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual(leftoverServers(), []);
});
