// bench/core/read-file.js: every input file is read the same way, and each failure becomes the
// caller's catalogued error with the problem worded the same everywhere.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readInputJson, readInputText, readPlainJson, readPlainText } from '../bench/core/read-file.js';

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

test('a file code under test wrote is read only as a plain file within its size, never through a link', () => {
  const lock = file('lock.json', '{"lockfileVersion": 3}');
  assert.deepEqual(readPlainJson(lock, 100, fail), { lockfileVersion: 3 });
  const link = join(dir, 'linked.json');
  symlinkSync(lock, link);
  for (const path of [link, dir])
    assert.throws(
      () => readPlainText(path, 100, fail),
      (error) =>
        /^is not a plain file \(a link, a folder or a device\)/.test(error.message) && error.cause.kind === 'notPlain',
    );
  assert.throws(
    () => readPlainText(lock, 10, fail),
    (error) => error.message === 'is 22 bytes, more than the 10 perfgate reads of it' && error.cause.kind === 'tooBig',
  );
  assert.equal(readPlainJson(join(dir, 'absent.json'), 10, fail, { missing: null }), null);
  assert.throws(() => readPlainJson(file('plain.txt', 'x'), 10, fail), { message: /^is not JSON/ });
});
