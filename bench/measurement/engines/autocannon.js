// autocannon, the default engine: each instance is its own Node process
// (./autocannon-process.js), started on the load cores and ready before the load begins, so
// that two instances (a duet) start at the same moment; one process serves the warm-up and
// the measured load.
import { fileURLToPath } from 'node:url';
import { spawnGroup, stopGroup } from '../process/children.js';
import { boundedWait } from './bounded.js';

const PROCESS_FILE = fileURLToPath(new URL('./autocannon-process.js', import.meta.url));

// Pure: perfgate's load options -> autocannon's.
function autocannonOptions({ host, port, request, connections, duration, pipelining = 1, rate = 0, timeout }) {
  return {
    // autocannon's overallRate: each connection's share per second, then it waits for the next.
    ...(rate > 0 ? { overallRate: rate } : {}),
    url: `http://${host}:${port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration,
    pipelining,
    timeout,
  };
}

const nextMessage = (child) =>
  new Promise((resolve, reject) => {
    const exited = (code, signal) => reject(new Error(`autocannon process exited (${signal ?? `code ${code}`})`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message);
    });
  });

export const autocannonEngine = {
  name: 'autocannon',
  help: 'autocannon',
  packages: ['autocannon'],
  isDefault: true,
  unavailable: () => null, // a dependency of perfgate itself
  paces: true, // can hold a rate (--rate)
  counts: true, // can stop at a request count (a soak's --soak-requests)
  async launch(options) {
    // Affinity is inherited: the harness runs on the load cores (bench/measurement/pinning.js pinSelf).
    const group = spawnGroup([process.execPath, PROCESS_FILE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const { child } = group;
    try {
      // Started while the server may still be starting; told where to aim once its port is known.
      const port = await options.port;
      const ready = nextMessage(child);
      child.send({ options: autocannonOptions({ ...options, port }) });
      await boundedWait(ready, 30, 'autocannon did not start');
    } catch (error) {
      await stopGroup(group);
      throw error;
    }
    return {
      async go(duration = options.duration, requests = 0) {
        const done = nextMessage(child);
        child.send({ duration, requests });
        const message = await boundedWait(done, duration + options.timeout + 30, 'autocannon did not finish');
        if (message.error) throw new Error(`autocannon failed: ${message.error}`);
        return message.sample;
      },
      stop: () => stopGroup(group),
    };
  },
};
