// npm run duet-cost at its smallest: the memory-heavy variant in duet and alone, and an
// allocation-only change measured in both modes (the plumbing; the ratios are the machine's).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';

test('duet-cost measures duet against each server alone, and an injected change in both modes', () => {
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/duet-cost.mjs'),
      ...['--benchmark', 'express-store:json:10', '--rounds', '1', '--inject-objects', '100'],
      ...['--duration', '0.3', '--warmup', '0', '--out', out],
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  const [result] = JSON.parse(readFileSync(join(out, 'duet-cost.json'), 'utf8'));
  assert.equal(result.id, 'express-store json c=10');
  assert.ok(result.inflation > 0);
  assert.deepEqual(Object.keys(result.injected[0]).sort(), ['amount', 'duet', 'name', 'sequential']);
  assert.match(run.stdout, /\| express-store json c=10 \| 1 \| [\d.]+ µs \| [\d.]+ µs \| [\d.]+× \|/);
  assert.match(run.stdout, /allocation-only: small objects built and dropped per request: 100 \| [+-][\d.]+ %/);
  assert.deepEqual(leftoverServers(), []);
});

test('duet-cost refuses a benchmark that is not variant:scenario:connections, naming the form', () => {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/duet-cost.mjs'), '--benchmark', 'express'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /"express" is not variant:scenario:connections/);
});
