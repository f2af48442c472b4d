// Why a server did not start, from its log: the first lines that look like an error, not the
// last line (the tail of a stack trace or the runtime's banner).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logExcerpt } from '../bench/measurement/process/log-excerpt.js';

test("Node's crash: the error's headline, not the stack, the source excerpt or the banner", () => {
  const log = `node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lowdb' imported from /tmp/side/src/db.js
    at packageResolve (node:internal/modules/esm/resolve:873:9)
    at moduleResolve (node:internal/modules/esm/resolve:946:18) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v22.11.0
`;
  assert.equal(
    logExcerpt(log),
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lowdb' imported from /tmp/side/src/db.js",
  );
});

test('a line that mentions a failure when no headline does; else the last line', () => {
  assert.equal(
    logExcerpt('starting\nlisten EADDRINUSE: address already in use 127.0.0.1:3000\n    at Server.setupListenHandle\n'),
    'listen EADDRINUSE: address already in use 127.0.0.1:3000',
  );
  assert.equal(logExcerpt('booting\nlistening on http://localhost:3000\n'), 'listening on http://localhost:3000');
  assert.equal(logExcerpt(''), '');
});

test('at most two distinct lines', () => {
  assert.equal(
    logExcerpt('TypeError: a is undefined\nTypeError: a is undefined\nRangeError: too deep\nSyntaxError: x\n'),
    'TypeError: a is undefined / RangeError: too deep',
  );
});
