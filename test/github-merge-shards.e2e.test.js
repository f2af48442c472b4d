// scripts/merge-shards.mjs: bench-main's per-variant shards become one pair of
// github-action-benchmark inputs; bad shards are refused with the reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT, tempDir } from './helpers/harness.js';

const bench = (name, value, unit) => ({ name, value, unit, extra: `variant: ${name.split(' ')[0]}` });

function shard(
  root,
  variant,
  files = {
    'benchmark-action-bigger.json': [bench(`${variant} hello c=100 - req/s`, 1000, 'req/s')],
    'benchmark-action-smaller.json': [
      bench(`${variant} hello c=100 - p99 latency`, 3, 'ms'),
      bench(`${variant} hello c=100 - peak RSS`, 50, 'MB'),
    ],
  },
) {
  const dir = join(root, `shard-${variant}`);
  mkdirSync(dir);
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

const merge = (args) =>
  spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/merge-shards.mjs'), ...args], { encoding: 'utf8' });

test('shards are merged in order; a shard that measured nothing is left out with a note', () => {
  const root = tempDir();
  const out = join(root, 'merged');
  const run = merge(['--out', out, shard(root, 'express'), shard(root, 'fastify', {}), shard(root, 'koa')]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /shard-fastify has no benchmark files \(its shard measured nothing\); left out/);
  assert.match(run.stdout, /merged 2 shard\(s\): 2 \+ 4 benchmarks/);
  const read = (file) => JSON.parse(readFileSync(join(out, file), 'utf8')).map((item) => item.name);
  assert.deepEqual(read('benchmark-action-bigger.json'), ['express hello c=100 - req/s', 'koa hello c=100 - req/s']);
  assert.deepEqual(read('benchmark-action-smaller.json'), [
    'express hello c=100 - p99 latency',
    'express hello c=100 - peak RSS',
    'koa hello c=100 - p99 latency',
    'koa hello c=100 - peak RSS',
  ]);
});

const refusals = [
  [
    'the same benchmark in two shards',
    (root) => [shard(root, 'express'), shard(join(root, 'again'), 'express')],
    /benchmark "express hello c=100 - req\/s" is in two shards/,
  ],
  [
    'a malformed input',
    (root) => [
      shard(root, 'express', {
        'benchmark-action-bigger.json': '[{"name": "x"}]',
        'benchmark-action-smaller.json': '[]',
      }),
    ],
    /benchmark-action-bigger\.json is not valid: benches\[0\] must have required property 'value'/,
  ],
  [
    'one file of a pair missing',
    (root) => [shard(root, 'express', { 'benchmark-action-bigger.json': '[]' })],
    /benchmark-action-smaller\.json does not exist/,
  ],
  ['no shard with results', (root) => [shard(root, 'express', {})], /no shard has benchmark files: nothing to publish/],
];
for (const [what, shards, message] of refusals) {
  test(`refuses ${what} (exit 2), writing nothing`, () => {
    const root = tempDir();
    mkdirSync(join(root, 'again'));
    const out = join(root, 'merged');
    const run = merge(['--out', out, ...shards(root)]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, message);
    assert.throws(() => readFileSync(join(out, 'benchmark-action-bigger.json')), /ENOENT/);
  });
}

test('a command line without --out or shards is explained', () => {
  const run = merge(['--output']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /unknown option --output/);
  assert.match(run.stderr, /--out is required/);
  assert.match(run.stderr, /name at least one shard directory/);
});
