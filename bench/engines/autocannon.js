// autocannon, the default engine: each instance is its own Node process
// (./autocannon-process.js), started on the load cores, ready before the load begins so
// that two instances (a duet) can start at the same moment.
import { fileURLToPath } from 'node:url';
import { spawnGroup, stopGroup } from '../process/children.js';
import { boundedWait } from './bounded.js';

const PROCESS_FILE = fileURLToPath(new URL('./autocannon-process.js', import.meta.url));

// Pure: perfgate's load options -> autocannon's.
export function autocannonOptions({ port, request, connections, duration, pipelining = 1, timeout }) {
  return {
    url: `http://127.0.0.1:${port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration,
    pipelining,
    timeout,
  };
}

const nextMessage = (child) => new Promise((resolve, reject) => {
  child.once('message', resolve);
  child.once('exit', (code, signal) => reject(new Error(`autocannon process exited (${signal ?? `code ${code}`})`)));
});

export const autocannonEngine = {
  name: 'autocannon',
  unavailable: () => null, // a dependency of perfgate itself
  async launch(options) {
    // Affinity is inherited: the harness runs on the load cores (bench/pinning.js pinSelf).
    const group = spawnGroup([process.execPath, PROCESS_FILE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const { child } = group;
    const ready = nextMessage(child);
    child.send(autocannonOptions(options));
    await boundedWait(ready, 30, 'autocannon did not start');
    return {
      async go() {
        const done = nextMessage(child);
        child.send('go');
        try {
          const message = await boundedWait(done, options.duration + options.timeout + 30, 'autocannon did not finish');
          if (message.error) throw new Error(`autocannon failed: ${message.error}`);
          return message.sample;
        } finally {
          await stopGroup(group);
        }
      },
      stop: () => stopGroup(group),
    };
  },
};
