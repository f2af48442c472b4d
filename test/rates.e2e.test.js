// Rate tiers end to end: `bench --rates` with the open-model engine names its benchmarks r=N beside
// a c= tier, tables them against the offered rate, and the history it appends reads back on the site
// as rates, never as tiers; a closed-loop engine is refused. Names and shapes only, no speed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'node:test';
import { vegetaUnavailable } from '../bench/measurement/engines/vegeta.js';
import { readBenchmarkData } from '../site/shared/benchmark-data.js';
import { readResult, runBench, tempDir } from './helpers/harness.js';

const QUICK = ['--suite', 'smoke', '--scenario', 'hello', '--duration', '0.5', '--warmup', '0.2'];

describe('bench --rates', { skip: vegetaUnavailable() ?? false }, () => {
  test('r= benchmarks beside a c= tier: result, table and history', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const history = join(dir, 'data.js');
    const run = await runBench([
      ...QUICK,
      '--engine',
      'vegeta',
      '--rates',
      '100,200',
      '--connections',
      '4',
      '--rate',
      '100',
      '--out',
      out,
      '--history',
      history,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readResult(out);
    assert.deepEqual(
      result.benchmarks.map((benchmark) => [benchmark.id, benchmark.connections, benchmark.rate]),
      [
        ['node-http hello c=4', 4, undefined],
        ['node-http hello r=100', undefined, 100],
        ['node-http hello r=200', undefined, 200],
      ],
    );
    const table = readFileSync(join(out, 'table.md'), 'utf8');
    assert.match(table, /^\| Server \| Load \| Requests\/sec \|/m);
    assert.match(table, /^\| node-http hello \| r=200 \|/m);
    const window = {};
    runInNewContext(readFileSync(history, 'utf8'), { window });
    const samples = readBenchmarkData(window.BENCHMARK_DATA).samples.filter((sample) => sample.metric === 'req/s');
    assert.deepEqual(
      samples.map((sample) => [sample.id, sample.tier, sample.rate]),
      [
        ['node-http hello c=4', 4, null],
        ['node-http hello r=100', null, 100],
        ['node-http hello r=200', null, 200],
      ],
    );
  });
});

test('rates on a closed-loop engine are refused, naming --engine vegeta', async () => {
  const run = await runBench([...QUICK, '--rates', '500', '--no-history']);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /"autocannon" is a closed loop .*add --engine vegeta/);
});
