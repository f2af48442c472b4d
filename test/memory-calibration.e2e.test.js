// npm run calibrate --objects N --leak BYTES at its smallest: one A/A and one trial of each
// memory injection, judged with the runtime agent on; which verdicts come out is the machine's
// business, the direction of a known allocation is not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';

test('npm run calibrate --objects --leak runs A/A and each injection and reports their detection', () => {
  const out = tempDir();
  const run = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'scripts/calibrate.mjs'),
      ...['--runs', '1', '--benchmark', 'node-http:hello:10', '--modes', 'duet', '--objects', '500'],
      ...['--leak', '4096', '--min-rounds', '2', '--max-rounds', '2', '--no-confirm'],
      ...['--duration', '0.5', '--warmup', '0.2', '--budget', '60', '--out', out],
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /duet \[1\/1\] A\/A: .*\n.*duet \[1\/1\] objects 500: .*\n.*duet \[1\/1\] leak 4096: /);
  const calibration = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
  assert.deepEqual(
    calibration.injections.map(({ kind, inject }) => [kind, inject]),
    [
      ['objects 500', { PERFGATE_INJECT_OBJECTS: '500' }],
      ['leak 4096', { PERFGATE_INJECT_LEAK: '4096' }],
    ],
  );
  const [only] = calibration.calibrations;
  assert.deepEqual(
    only.trials.map((trial) => trial.kind),
    ['A/A', 'objects 500', 'leak 4096'],
  );
  assert.deepEqual(
    only.summary.detection.map(({ kind, runs }) => [kind, runs]),
    [
      ['objects 500', 1],
      ['leak 4096', 1],
    ],
  );
  // 500 objects of a few words each per request, on a server that allocates a few KB for hello.
  const [heap] = only.achieved['objects 500'];
  assert.equal(heap.metric, 'heap bytes/request');
  assert.ok(heap.change > 0.2, `heap bytes/request ${heap.change}`);
  const { benchmarks } = JSON.parse(
    readFileSync(join(out, 'node-http-hello-10', 'duet-leak-4096-1', 'comparison.json')),
  );
  assert.ok(benchmarks[0].samples.head.every((sample) => sample.heapBytesPerRequest > 0));
  const markdown = readFileSync(join(out, 'calibration.md'), 'utf8');
  assert.match(markdown, /## perfgate calibration: node-http hello c=10, duet mode, memory \(objects 500, leak 4096\)/);
  assert.match(markdown, /\| 500 small objects built and dropped per request called regression or small regression \|/);
  assert.match(markdown, /\| 4096 bytes kept per request called regression or small regression \|/);
  assert.match(markdown, /\| A\/A called slower/);
  assert.deepEqual(leftoverServers(), []);
});

test('calibrate refuses an injection amount that is not a positive integer, naming the fix, before any server starts', () => {
  const run = spawnSync(
    process.execPath,
    [join(PROJECT_ROOT, 'scripts/calibrate.mjs'), '--objects', '50,0,many', '--leak', '-1'],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  assert.equal(run.status, 2, run.stderr);
  assert.match(
    run.stderr,
    /--objects: "0" is not a positive integer: give the small objects per request, e\.g\. 50,200/,
  );
  assert.match(run.stderr, /--objects: "many" is not a positive integer/);
  assert.match(run.stderr, /--leak must be a whole number of at least 1, not "-1"/);
});
