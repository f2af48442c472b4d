// How many processes (node-cluster) or threads (node-workers) a multi-core variant starts:
// PERFGATE_SERVER_WORKERS when set, else one per CPU this server may run on (which honours
// the harness's taskset pinning: on 2 cores the server gets 1, the load generator the other).
import os from 'node:os';

export function serverWorkers(env = process.env) {
  const configured = env.PERFGATE_SERVER_WORKERS;
  if (configured === undefined || configured === '') return os.availableParallelism();
  const count = Number(configured);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`PERFGATE_SERVER_WORKERS="${configured}" is not a positive integer`);
  return count;
}
