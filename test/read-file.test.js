// bench/core/read-file.js: every input file is read the same way, and each failure becomes the
// caller's catalogued error with the problem worded the same everywhere.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readInputJson, readInputText } from '../bench/core/read-file.js';

const dir = mkdtempSync(join(tmpdir(), 'perfgate-read-'));
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const fail = (problem, cause) => Object.assign(new Error(problem), { cause });

test('JSON and text are read as they are', () => {
  assert.deepEqual(readInputJson(file('ok.json', '{"a": 1}'), fail), { a: 1 });
  assert.equal(readInputText(file('ok.txt', 'hello'), fail), 'hello');
});

test('a missing file fails, unless the caller says what absence means', () => {
  const absent = join(dir, 'absent.json');
  assert.throws(
    () => readInputJson(absent, fail),
    (error) => error.message === 'does not exist' && error.cause.kind === 'missing',
  );
  assert.deepEqual(readInputJson(absent, fail, { missing: { empty: true } }), { empty: true });
  assert.equal(readInputText(absent, fail, { missing: null }), null);
});

test('text that is not JSON, and a file that cannot be read, are named as such', () => {
  assert.throws(
    () => readInputJson(file('bad.json', 'req/s: 5'), fail),
    (error) => /^is not JSON \(/.test(error.message) && error.cause.kind === 'notJson',
  );
  assert.throws(
    () => readInputJson(dir, fail),
    (error) => /^cannot be read \(EISDIR/.test(error.message) && error.cause.kind === 'unreadable',
  );
  const locked = file('locked.json', '{}');
  chmodSync(locked, 0);
  // root reads any file: then there is nothing to refuse.
  if (process.getuid?.() !== 0) assert.throws(() => readInputJson(locked, fail), /cannot be read \(EACCES/);
});
