// The local history file: atomic replacement, appending to an absent, valid or damaged
// file, and where the file lives by default.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import {
  appendRunToFile,
  defaultHistoryPath,
  parseBenchmarkData,
  readHistoryFile,
  serializeBenchmarkData,
  writeFileAtomicSync,
} from '../bench/history/index.js';
import { FIXTURES, PROJECT_ROOT, sampleRun, tempDir } from './fixtures/history/helpers.js';

test('an atomic write creates the parent directories and leaves no temporary file', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'a/b/data.js');
  writeFileAtomicSync(file, 'first');
  writeFileAtomicSync(file, 'second');
  assert.equal(readFileSync(file, 'utf8'), 'second');
  assert.deepEqual(readdirSync(join(dir, 'a/b')), ['data.js']);
});

test('a write that fails part way keeps the previous content and leaves no temporary file', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'data.js');
  writeFileSync(file, 'previous');
  // A file size limit of 512 bytes makes the write of 1 MB fail after its first block.
  const script = `import { writeFileAtomicSync } from ${JSON.stringify(join(PROJECT_ROOT, 'bench/core/atomic-file.js'))};
    try { writeFileAtomicSync(${JSON.stringify(file)}, 'x'.repeat(1 << 20)); } catch (error) { console.log(error.code); }`;
  const output = execFileSync(
    'sh',
    ['-c', 'ulimit -f 1; exec "$0" --input-type=module -e "$1"', process.execPath, script],
    { encoding: 'utf8' },
  );
  assert.equal(output.trim(), 'EFBIG');
  assert.equal(readFileSync(file, 'utf8'), 'previous');
  assert.deepEqual(readdirSync(dir), ['data.js']);
});

test('a write whose rename fails leaves no temporary file', (t) => {
  const dir = tempDir(t);
  const target = join(dir, 'data.js');
  mkdirSync(join(target, 'occupied'), { recursive: true });
  assert.throws(() => writeFileAtomicSync(target, 'new'), /EISDIR|ENOTEMPTY|EEXIST/);
  assert.deepEqual(readdirSync(dir), ['data.js']);
  assert.deepEqual(readdirSync(target), ['occupied']);
});

test('appending to an absent history starts it; appending again adds to it', (t) => {
  const file = join(tempDir(t), 'history/data.js');
  appendRunToFile(file, sampleRun({ value: 1 }), { now: 10 });
  const { added } = appendRunToFile(file, sampleRun({ value: 2 }), { now: 20 });
  assert.deepEqual(added, ['perfgate throughput']);
  const text = readFileSync(file, 'utf8');
  const data = parseBenchmarkData(text, file);
  assert.equal(text, serializeBenchmarkData(data));
  assert.deepEqual(
    data.entries['perfgate throughput'].map((entry) => entry.benches[0].value),
    [1, 2],
  );
  assert.equal(data.lastUpdate, 20);
  assert.equal(data.repoUrl, '');
});

test('appending to a file the action wrote keeps its runs', (t) => {
  const file = join(tempDir(t), 'data.js');
  writeFileSync(file, readFileSync(join(FIXTURES, 'action-data.js.txt')));
  const { data } = appendRunToFile(file, sampleRun(), { maxItems: 2 });
  assert.equal(data.entries['perfgate throughput'].length, 2);
  assert.equal(data.entries['perfgate throughput'][0].commit.id, 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678');
  assert.equal(data.entries['perfgate latency'].length, 1);
  assert.equal(data.repoUrl, 'https://github.com/acme/api');
});

test('a damaged history is refused and left as it was', (t) => {
  const file = join(tempDir(t), 'data.js');
  const damaged = readFileSync(join(FIXTURES, 'malformed-truncated.js.txt'), 'utf8');
  writeFileSync(file, damaged);
  assert.throws(
    () => appendRunToFile(file, sampleRun()),
    (error) => {
      assert.equal(error.code, 'PG_HISTORY_MALFORMED');
      assert.ok(error.message.includes(file));
      return true;
    },
  );
  assert.equal(readFileSync(file, 'utf8'), damaged);
  assert.throws(
    () => readHistoryFile(file, 'gh-pages:dev/bench/data.js'),
    /benchmark data gh-pages:dev\/bench\/data\.js is malformed/,
  );
});

test('the history lives in .perfgate/history/data.js unless PERFGATE_HISTORY says otherwise', () => {
  assert.equal(defaultHistoryPath('/project', {}), resolve('/project/.perfgate/history/data.js'));
  assert.equal(defaultHistoryPath('/project', { PERFGATE_HISTORY: 'perf/data.js' }), resolve('/project/perf/data.js'));
  assert.equal(defaultHistoryPath('/project', { PERFGATE_HISTORY: '/var/perf/data.js' }), '/var/perf/data.js');
});
