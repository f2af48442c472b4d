// A node-workers pool thread: does the cpu scenario's work (PERFGATE_CPU_WORK, handed over as
// workerData) once per task, off the thread that serves HTTP.
import { workerData } from 'node:worker_threads';
import { parseCpuWork } from '../contract/scenarios.js';

const work = parseCpuWork(workerData);

export default function cpuTask() {
  work();
}
