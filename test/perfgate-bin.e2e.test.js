// bin/perfgate.js: one command line for the scripts, with their own options and help.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from './helpers/harness.js';

const perfgate = (...args) =>
  spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/perfgate.js'), ...args], { encoding: 'utf8' });
const COMPARE_AND_BENCH = ['bench', 'compare'];
const COMMANDS = [
  ...['bench', 'compare', 'calibrate', 'bisect', 'detect', 'site', 'publish', 'client-check', 'trend'],
  ...['sandbox-overhead', 'agent-overhead', 'duet-cost'],
];

test('package.json names it as the bin, and --help lists every command, each a script of the package', () => {
  assert.deepEqual(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).bin, {
    perfgate: 'bin/perfgate.js',
  });
  const help = perfgate('--help');
  assert.equal(help.status, 0);
  for (const command of COMMANDS) {
    assert.match(help.stdout, new RegExp(`^  ${command} +\\w`, 'm'), command);
    assert.ok(existsSync(join(PROJECT_ROOT, 'scripts', `${command}.mjs`)), command);
  }
});

test('each command is its script, with its options and help under the perfgate name', () => {
  for (const command of COMPARE_AND_BENCH) {
    const help = perfgate(command, '--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`^usage: perfgate ${command} `, 'm'));
  }
  // Every help names the commands a user of the installed package types.
  for (const command of COMMANDS) assert.doesNotMatch(perfgate(command, '--help').stdout, /npm run/, command);
  assert.match(perfgate('bench', '--help').stdout, /the local history that `perfgate site` shows/);
  const wrong = perfgate('bench', '--no-such-flag');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /unknown option --no-such-flag[\s\S]*perfgate bench --help lists every option/);
});

test('an unknown command names the commands', () => {
  const run = perfgate('benchmark');
  assert.equal(run.status, 2);
  assert.match(
    run.stderr,
    /unknown command "benchmark": choose one of bench, compare, calibrate, bisect, detect, site, publish, client-check/,
  );
});
