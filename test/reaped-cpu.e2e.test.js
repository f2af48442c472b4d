// A short-lived engine run by runReaped (wrk, vegeta): its output is read to the end of its
// streams, the shell's CPU line included, not only up to the process's exit; a failure names the
// program and its last words; a program that does not end is stopped within its bound.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runReaped } from '../bench/measurement/engines/reaped-cpu.js';

test('a program that writes much and exits at once: all its output and its CPU seconds', async () => {
  const { stdout, cpuSeconds } = await runReaped({
    name: 'writer',
    program: 'sh',
    args: ['-c', 'head -c 4000000 /dev/zero | tr "\\000" x; echo'],
    seconds: 30,
  });
  assert.ok(stdout.length > 4_000_000);
  assert.ok(cpuSeconds >= 0);
});

test('a program that fails names itself, its exit code and its last words', async () => {
  await assert.rejects(
    runReaped({ name: 'failing', program: 'sh', args: ['-c', 'echo broken >&2; exit 3'], seconds: 30 }),
    /failing failed \(code 3\): broken/,
  );
});

test('a program that does not end is stopped within its bound', async () => {
  await assert.rejects(
    runReaped({ name: 'sleeper', program: 'sleep', args: ['30'], seconds: 1 }),
    /sleeper did not finish within 1 s/,
  );
});
