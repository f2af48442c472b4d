// Express 5 on the Bun runtime: the express variant's own app, started by Bun instead of Node.
// The Bun binary comes from the npm package `bun` (its per-platform optional dependency).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { commandProblem } from '../probe.js';

export { start } from './express.js';

export const packages = ['express', 'bun'];
// On Bun, http is Bun's node:http and fetch Bun's own fetch.
export const proxyClients = ['http', 'fetch'];
export const proxyClientNote = 'Bun replaces the undici package with a built-in stub whose Pool cannot send requests';

const require = createRequire(import.meta.url);

function bunBinary() {
  try {
    const manifest = require.resolve('bun/package.json');
    return join(dirname(manifest), require(manifest).bin.bun);
  } catch {
    return 'bun'; // not installed from npm: a bun on PATH, if any; unavailable() tells
  }
}

export function command({ launchScript, name }) {
  return [bunBinary(), launchScript, name];
}

export async function unavailable() {
  return commandProblem([bunBinary(), '--version'], 'bun');
}
