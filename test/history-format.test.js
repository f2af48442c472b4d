// Reading and writing github-action-benchmark's data.js: the exact text the action writes,
// older files with missing fields, and damaged or hostile files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBenchmarkData, serializeBenchmarkData } from '../bench/history/index.js';
import { FIXTURES } from './fixtures/history/helpers.js';

const fixture = (name) => readFileSync(join(FIXTURES, name), 'utf8');
const wrap = (data) => `window.BENCHMARK_DATA = ${JSON.stringify(data)}`;
const entry = (overrides = {}) => ({
  commit: { id: 'abc' },
  date: 1,
  tool: 'customBiggerIsBetter',
  benches: [{ name: 'x', value: 1, unit: 'ms' }],
  ...overrides,
});

test('a file written by the action parses and serializes back to the same bytes', () => {
  const text = fixture('action-data.js.txt');
  const data = parseBenchmarkData(text, 'action-data.js');
  assert.deepEqual(Object.keys(data.entries), ['perfgate throughput', 'perfgate latency']);
  assert.equal(data.entries['perfgate throughput'][1].benches[1].name, 'fastify json c=100 - req/s');
  assert.equal(serializeBenchmarkData(data), text);
});

test('a file with missing commit fields, a numeric range and a trailing semicolon parses', () => {
  const data = parseBenchmarkData(fixture('missing-commit-fields.js.txt'), 'old.js');
  const [first, second] = data.entries['Rust Benchmark'];
  assert.equal(data.repoUrl, undefined);
  assert.equal(first.commit.author.username, undefined);
  assert.equal(first.benches[0].range, 32);
  assert.deepEqual(second.commit, {});
  assert.deepEqual(parseBenchmarkData(serializeBenchmarkData(data), 'again.js'), data);
});

test('a malformed file is refused with its name, the problem and the fix', () => {
  const cases = [
    [fixture('malformed-truncated.js.txt'), /its JSON does not parse/],
    ['', /does not start with `window.BENCHMARK_DATA =`/],
    ['{"entries": {}}', /does not start with/],
    [wrap([]), /BENCHMARK_DATA must be object/],
    [wrap({ lastUpdate: 1 }), /BENCHMARK_DATA must have required property 'entries'/],
  ];
  for (const [text, problem] of cases) {
    assert.throws(
      () => parseBenchmarkData(text, '/repo/dev/bench/data.js'),
      (error) => {
        assert.equal(error.code, 'PG_HISTORY_MALFORMED');
        assert.match(error.message, /^benchmark data \/repo\/dev\/bench\/data\.js is malformed/);
        assert.match(error.message, problem);
        assert.match(error.message, /restore it from git or move it aside/);
        return true;
      },
    );
  }
});

test('broken or hostile fields are refused, each named by its path', () => {
  const text = wrap({
    entries: {
      'perfgate latency': [
        entry({ date: '2026-01-01' }),
        entry({ commit: { id: 'x', url: 'javascript:alert(1)' } }),
        entry({ benches: [{ name: 'y', value: '12; alert(1)', unit: 'ms' }] }),
      ],
      'perfgate throughput': { not: 'a list' },
    },
    repoUrl: 'data:text/html,hi',
  });
  assert.throws(
    () => parseBenchmarkData(text, 'data.js'),
    (error) => {
      for (const field of [
        'BENCHMARK_DATA.repoUrl must be an http(s):// address',
        'entries["perfgate latency"][0].date must be number',
        'entries["perfgate latency"][1].commit.url must be an http(s):// address',
        'entries["perfgate latency"][2].benches[0].value must be a number, or a string that is one',
        'entries["perfgate throughput"] must be array',
      ])
        assert.ok(error.message.includes(field), `${field} in ${error.message}`);
      return true;
    },
  );
});

test('a suite named __proto__ stays plain data', () => {
  const data = parseBenchmarkData('window.BENCHMARK_DATA = {"entries": {"__proto__": []}}', 'data.js');
  assert.ok(Object.hasOwn(data.entries, '__proto__'));
  assert.equal(Object.getPrototypeOf(data.entries), Object.prototype);
});
