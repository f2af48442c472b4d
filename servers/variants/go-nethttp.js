// Go's net/http (servers/go-nethttp/), built by `npm run setup` with `go build`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BINARY = fileURLToPath(new URL('../../.perfgate/build/go-nethttp', import.meta.url));

export async function unavailable() {
  if (existsSync(BINARY)) return null;
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0
    ? 'not built (npm run setup builds it in a checkout of perfgate; the npm package has no build)'
    : 'go toolchain missing';
}

// The static scenario's directory, from the servers/ of the checkout being run.
export const command = ({ launchScript }) => [BINARY, join(dirname(launchScript), 'static')];

export const proxyClients = ['http'];
export const proxyClientNote = "it forwards with Go's net/http client, not a Node one";
