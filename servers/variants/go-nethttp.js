// Go's net/http (servers/go-nethttp/), built by `npm run setup` with `go build`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BINARY = fileURLToPath(new URL('../../.perfgate/build/go-nethttp', import.meta.url));

export async function unavailable() {
  if (existsSync(BINARY)) return null;
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0 ? 'not built: run npm run setup' : 'go toolchain missing';
}

export const command = () => [BINARY];
