// Reading github-action-benchmark input files (the benchmark-action-*.json of a run).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readBenchmarkInput } from '../bench/history/index.js';
import { benches, tempDir } from './fixtures/history/helpers.js';

test('an input file gives its benches', (t) => {
  const file = join(tempDir(t), 'bigger.json');
  writeFileSync(file, JSON.stringify(benches(5321.4)));
  assert.deepEqual(readBenchmarkInput(file), benches(5321.4));
});

test('a missing, unparsable or invalid input file is refused with the reason', (t) => {
  const dir = tempDir(t);
  const write = (name, text) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const cases = [
    [join(dir, 'absent.json'), /absent\.json does not exist/],
    [write('text.json', 'req/s: 5000'), /text\.json is not JSON/],
    [write('object.json', '{"name": "x"}'), /benches must be array/],
    [
      write('bad.json', '[{"name": "x", "value": "fast"}]'),
      /benches\[0\] must have required property 'unit'; benches\[0\]\.value must be a number, or a string that is one/,
    ],
  ];
  for (const [file, reason] of cases) {
    assert.throws(
      () => readBenchmarkInput(file),
      (error) => {
        assert.equal(error.code, 'PG_BENCHMARK_INPUT');
        assert.match(error.message, reason);
        assert.match(error.message, /pass a github-action-benchmark input file/);
        return true;
      },
    );
  }
});
