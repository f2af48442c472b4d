// Where vegeta (the open-model engine, ./vegeta.js) is built and at which version: scripts/setup.mjs
// builds it from the Go module proxy with `go install` into the project's own tools, in a
// directory named for its version, so a new pin builds anew. Node built-ins only: setup runs
// before npm ci.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VEGETA_VERSION = '12.13.0';
export const VEGETA_MODULE = `github.com/tsenart/vegeta/v12@v${VEGETA_VERSION}`;
export const VEGETA_BIN = join(
  fileURLToPath(new URL('../../..', import.meta.url)),
  '.perfgate',
  'tools',
  `vegeta-${VEGETA_VERSION}`,
  'vegeta',
);
export const VEGETA_GOBIN = dirname(VEGETA_BIN);
