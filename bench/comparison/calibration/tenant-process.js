// The tenant-like neighbour's process (tenant.js starts it):
//   node tenant-process.js PERCENT THREADS SECONDS SEED
// THREADS busy threads, switched on and off together by tenantPhases; it exits after SECONDS, or
// as soon as its parent is gone (its stdin closes), so that it never outlives a harness killed
// without a chance to clean up.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../stats/prng.js';
import { tenantPhases } from './tenant.js';

const [percent, threads, seconds, seed] = process.argv.slice(2).map(Number);
if (!(percent > 0 && percent <= 100) || !(threads >= 1) || !(seconds > 0) || !Number.isInteger(seed)) {
  console.error('usage: tenant-process.js PERCENT(0-100] THREADS(>=1) SECONDS(>0) SEED(integer)');
  process.exit(2);
}

// Each thread sleeps while the switch is 0 and spins while it is 1.
const BUSY = `
const { workerData } = require('node:worker_threads');
const on = new Int32Array(workerData);
let sink = 0;
for (;;) {
  Atomics.wait(on, 0, 0);
  while (Atomics.load(on, 0) === 1) for (let i = 0; i < 1e5; i++) sink += Math.sqrt(i);
}
`;
const on = new Int32Array(new SharedArrayBuffer(4));
const workers = Array.from({ length: threads }, () => new Worker(BUSY, { eval: true, workerData: on.buffer }));
await Promise.all(workers.map((worker) => once(worker, 'online')));
for (const worker of workers) worker.unref();
process.stdout.write('ready\n');

// Its parent's end: stdin (a pipe from the harness) closes, or the parent pid changes (re-parented).
const parent = process.ppid;
const end = () => process.exit(0);
process.stdin.on('end', end).on('error', end).resume();
setInterval(() => {
  if (process.ppid !== parent) end();
}, 250).unref();
setTimeout(end, seconds * 1000);

const switchTo = (value) => {
  Atomics.store(on, 0, value);
  Atomics.notify(on, 0);
};
for (const { onMs, offMs } of tenantPhases(percent, seededRandom(seed))) {
  switchTo(1);
  await sleep(onMs);
  switchTo(0);
  await sleep(offMs);
}
