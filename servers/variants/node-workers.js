// worker_threads: the main thread serves HTTP, the cpu scenario's work runs in a piscina pool
// of PERFGATE_SERVER_WORKERS threads (default: the CPUs available to the server).
import { Piscina } from 'piscina';
import { listenHandler } from '../contract/contract.js';
import { requestListener } from '../routes/http-routes.js';
import { serverWorkers } from '../workers/parallelism.js';

export const packages = ['piscina'];

export async function start(ctx, { port, host }) {
  const threads = serverWorkers();
  const pool = new Piscina({
    filename: new URL('../workers/cpu-worker.js', import.meta.url).href,
    workerData: ctx.options.cpuWork,
    minThreads: threads,
    maxThreads: threads,
  });
  const pooled = { ...ctx, cpuWork: () => pool.run(null) };
  const server = await listenHandler(requestListener(pooled), port, host);
  return {
    port: server.port,
    close: async () => {
      await server.close();
      await pool.destroy();
    },
  };
}
