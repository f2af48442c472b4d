// Express on Bun: the express variant's own app on the runtime `bun` (the newest Bun release,
// installed from the npm registry into the runtime cache: bench/measurement/runtime/). A name of its own, so
// the frameworks study keeps its row; `--variant express --runtime bun@1.3` is the same server.
// On Bun, the proxy forwards with Bun's node:http or its own fetch (its undici is a stub).
export { start } from './express.js';

export const packages = ['express'];
export const runtime = 'bun';
