// node:cluster: the primary forks PERFGATE_SERVER_WORKERS processes (default: the CPUs available
// to the server), each serving the node-http variant on one shared port. start() resolves, and
// so the ready file is written, only once every worker listens. Workers exit with the primary
// (cluster ends a worker whose IPC channel closes; the harness also kills the process group).
import cluster from 'node:cluster';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { serverWorkers } from '../workers/parallelism.js';

// Resolves to the worker's port, or rejects if it exits first (a crash, a taken port).
function listening(worker) {
  return new Promise((resolve, reject) => {
    worker.once('listening', (address) => resolve(address.port));
    worker.once('exit', (code, signal) =>
      reject(new Error(`cluster worker ${worker.process.pid} exited before listening (${signal ?? `code ${code}`})`)),
    );
  });
}

async function stopAll(workers) {
  await Promise.all(
    workers
      .filter((worker) => !worker.isDead())
      .map((worker) => {
        const exited = once(worker, 'exit');
        worker.kill();
        return exited;
      }),
  );
}

export async function start(_ctx, { port, host }) {
  cluster.setupPrimary({ exec: fileURLToPath(new URL('../workers/cluster-worker.js', import.meta.url)) });
  // Workers listening on port 0 share one handle, so one random port, through the primary.
  const workers = Array.from({ length: serverWorkers() }, () => cluster.fork({ PORT: String(port), HOST: host }));
  let ports;
  try {
    ports = await Promise.all(workers.map(listening));
  } catch (error) {
    await stopAll(workers);
    throw error;
  }
  if (new Set(ports).size !== 1) {
    await stopAll(workers);
    throw new Error(`cluster workers listen on different ports: ${ports.join(', ')}`);
  }
  return { port: ports[0], close: () => stopAll(workers) };
}
