import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { planPinning, parseCpuList, pinnedCommand } from '../bench/measurement/pinning.js';
import { coreUsage, parsePidStat, parseProcStat } from '../bench/measurement/sampling/proc.js';
import { PROJECT_ROOT } from './helpers/harness.js';

test('/proc/stat per-core busy % as mpstat computes it', () => {
  const before = parseProcStat('cpu  1 1 1 1\ncpu0 100 0 50 800 50 0 0 0 0 0\ncpu1 10 0 10 980 0 0 0 0 0 0\n');
  const after = parseProcStat('cpu  1 1 1 1\ncpu0 160 0 80 810 50 0 0 0 0 0\ncpu1 15 0 15 1070 0 0 0 0 0 0\n');
  assert.deepEqual(coreUsage(before, after), [
    { core: 0, busyPct: 90, stealPct: 0 },
    { core: 1, busyPct: 10, stealPct: 0 },
  ]);
});

test("/proc/stat's steal column (time another guest had the core) is busy time, and its own share too", () => {
  // user nice system idle iowait irq softirq steal: cpu0 had 20 of its 100 ticks stolen.
  const before = parseProcStat('cpu0 100 0 0 900 0 0 0 10\ncpu1 100 0 0 900 0 0 0 0\n');
  const after = parseProcStat('cpu0 130 0 0 950 0 0 0 30\ncpu1 150 0 0 950 0 0 0 0\n');
  assert.deepEqual(coreUsage(before, after), [
    { core: 0, busyPct: 50, stealPct: 20 },
    { core: 1, busyPct: 50, stealPct: 0 },
  ]);
});

test('/proc/<pid>/stat with spaces and parentheses in the name', () => {
  const fields = [
    'S',
    '1',
    '4242',
    '4242',
    '0',
    '-1',
    '4194560',
    '0',
    '0',
    '0',
    '0',
    '70',
    '30',
    '12',
    '3',
    '20',
    '0',
    '1',
    '0',
    '5',
    '1000',
    '250',
  ];
  assert.deepEqual(parsePidStat(`4243 (node (worker) x) ${fields.join(' ')}`), {
    pgrp: 4242,
    cpuTicks: 100,
    childTicks: 15,
    rssPages: 250,
  });
});

test('cpu lists', () => {
  assert.deepEqual(parseCpuList('0-2,5'), [0, 1, 2, 5]);
  assert.deepEqual(parseCpuList('3\n'), [3]);
});

test('pinning keeps the load generator and the server apart', () => {
  assert.deepEqual(planPinning([0, 1]), { method: 'taskset', load: [0], server: [1], cpus: [0, 1] });
  assert.deepEqual(planPinning([0, 1, 2, 3], { loadWorkers: 2 }).server, [2, 3]);
  assert.deepEqual(planPinning([0, 1, 2, 3], { loadWorkers: 8 }).load, [0, 1], 'at most half the cores load');
  assert.equal(planPinning([0]).method, 'none');
  assert.match(planPinning([0, 1], { tasksetAvailable: false }).reason, /taskset not found/);
});

test('a pinned command starts under taskset', () => {
  assert.deepEqual(pinnedCommand(planPinning([0, 1]), ['node', 'x.js']), ['taskset', '-c', '1', 'node', 'x.js']);
  assert.deepEqual(pinnedCommand(planPinning([0]), ['node', 'x.js']), ['node', 'x.js']);
});

test('a second plan in the same process still spans every core, after pinSelf narrowed the process to the load core', () => {
  // In a child: pinSelf pins the whole process, and the test runner must stay unpinned.
  const script = `
    import { allowedCpus, currentPinning, pinSelf } from './bench/measurement/pinning.js';
    const first = currentPinning();
    pinSelf(first);
    console.log(JSON.stringify({ first, pinnedTo: allowedCpus(), second: currentPinning() }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const { first, pinnedTo, second } = JSON.parse(run.stdout);
  assert.deepEqual(second, first);
  if (first.method === 'taskset') assert.deepEqual(pinnedTo, first.load);
});
