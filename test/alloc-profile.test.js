// The differential allocation profile: bytes allocated per function and per package from a
// .heapprofile (V8's sampling heap profiler), keyed as the CPU profile's functions are, ranked
// by growth per request with its sampling uncertainty, and written in bytes, not µs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { comparisonMarkdown } from '../bench/comparison/report.js';
import { COMPARISON_FORMAT, comparisonSchema } from '../bench/comparison/schema.js';
import { profileKinds } from '../bench/comparison/run-comparison.js';
import { renderComment } from '../bench/github/comment.js';
import { comparisonFixture } from './helpers/comparison-fixture.js';
import { mergeSelfTimes } from '../bench/comparison/profile/cpuprofile.js';
import { differentialProfile } from '../bench/comparison/profile/differential.js';
import { packageBytes, selfBytes } from '../bench/comparison/profile/heapprofile.js';
import { profileTables } from '../bench/comparison/profile/report.js';

const frame = (functionName, url = '', lineNumber = 0) => ({
  functionName,
  scriptId: '0',
  url,
  lineNumber,
  columnNumber: 4,
});
const node = (id, callFrame, selfSize, children = []) => ({ id, callFrame, selfSize, children });

// (root) -> handle (app) -> buildGraph (app), and -> express's router -> node's setHeader;
// `graph` is buildGraph's bytes, `samples` its sample count.
function heapProfile({ graph, samples }) {
  const head = node(1, frame('(root)'), 0, [
    node(2, frame('handle', 'file:///repo/side/app.js', 9), 1000, [
      node(3, frame('buildGraph', 'file:///repo/side/lib/graph.js', 41), graph),
    ]),
    node(4, frame('router', 'file:///repo/side/node_modules/express/lib/router.js', 2), 4000, [
      node(5, frame('setHeader', 'node:_http_outgoing'), 2000),
    ]),
  ]);
  const sampled = [...Array(samples).fill(3), ...Array(10).fill(2), ...Array(40).fill(4), ...Array(20).fill(5)].map(
    (nodeId, ordinal) => ({ size: 64, nodeId, ordinal }),
  );
  return { head, samples: sampled };
}

describe('bytes allocated per function', () => {
  test('self size per function, its samples, file:line relative to the side, the root left out', () => {
    const functions = [...selfBytes(heapProfile({ graph: 30000, samples: 100 }), { root: '/repo/side' }).values()];
    assert.deepEqual(
      functions
        .map(({ functionName, path, line, package: pkg, selfBytes: bytes, samples }) => [
          functionName,
          `${path}:${line}`,
          pkg,
          bytes,
          samples,
        ])
        .sort(),
      [
        ['buildGraph', 'lib/graph.js:42', '(app)', 30000, 100],
        ['handle', 'app.js:10', '(app)', 1000, 10],
        ['router', 'lib/router.js:3', 'express', 4000, 40],
        ['setHeader', 'node:_http_outgoing:1', 'node', 2000, 20],
      ],
    );
  });

  test("by package, node's own allocation counts for the package that called it", () => {
    const packages = packageBytes(heapProfile({ graph: 30000, samples: 100 }));
    assert.deepEqual(Object.fromEntries([...packages].map(([name, entry]) => [name, entry.selfBytes])), {
      '(app)': 31000,
      express: 6000,
    });
  });

  test('processes of one side add up', () => {
    const one = selfBytes(heapProfile({ graph: 30000, samples: 100 }), { root: '/repo/side' });
    const merged = mergeSelfTimes([one, one], 'selfBytes');
    assert.equal([...merged.values()].find((entry) => entry.functionName === 'buildGraph').selfBytes, 60000);
  });
});

describe('differential allocation profile', () => {
  const side = (profile, requests) => ({
    functions: selfBytes(profile, { root: '/repo/side' }),
    packages: packageBytes(profile),
    requests,
  });

  test('the function that allocates more per request ranks first, with its uncertainty, in bytes', () => {
    // Base: 100 requests, buildGraph 30 kB; head: 100 requests, buildGraph 90 kB.
    const diff = differentialProfile(
      {
        base: side(heapProfile({ graph: 30000, samples: 100 }), 100),
        head: side(heapProfile({ graph: 90000, samples: 300 }), 100),
      },
      { field: 'selfBytes' },
    );
    const [first] = diff.grew;
    assert.deepEqual([first.functionName, first.base, first.head, first.change], ['buildGraph', 300, 900, 600]);
    assert.ok(first.uncertainty > 0 && first.uncertainty < first.change, `${first.uncertainty}`);
    assert.deepEqual(diff.shrank, []);
    assert.deepEqual(diff.totals, { base: 370, head: 970 });
    const markdown = profileTables({ ...diff }, (text) => text, 'allocation').join('\n');
    assert.match(markdown, /Bytes allocated per request on the V8 heap, base 370 B → head 970 B/);
    assert.match(markdown, /Grew most: \(app\): \+600 B\/request, 310 → 910\./);
    assert.match(markdown, /\| function \| where \| package \| base B\/req \| head B\/req \| change \|/);
    assert.match(markdown, /\| buildGraph \| lib\/graph\.js:42 \| \(app\) \| 300 \| 900 \| \+600 ± \d+ \|/);
    assert.doesNotMatch(markdown, /µs/);
  });

  test('the CPU profile keeps its unit', () => {
    const cpu = profileTables({ grew: [], shrank: [], totals: { base: 10, head: 12 } }, (text) => text).join('\n');
    assert.match(cpu, /Self time per request, base 10\.0 µs → head 12\.0 µs/);
    assert.match(cpu, /base µs\/req/);
  });
});

describe('the allocation profile in comparison.json, the report and the PR comment', () => {
  const row = { functionName: 'buildGraph', path: 'lib/graph.js', line: 42, package: '(app)', base: 300, head: 900 };
  const allocationProfile = {
    packages: [{ package: '(app)', base: 310, head: 910, change: 600, uncertainty: 119 }],
    grew: [{ ...row, change: 600, uncertainty: 120 }],
    shrank: [],
    totals: { base: 370, head: 970 },
    requests: { base: 100, head: 100 },
    files: ['/results/x/profile/head/head-7.heapprofile'],
  };
  const sample = { requestsPerSecond: 1000, p99LatencyMs: 2, cpuMicrosPerRequest: 100 };
  const comparison = {
    ...comparisonFixture(),
    sides: { base: { description: 'main' }, head: { description: 'branch' } },
    benchmarks: [
      {
        id: 'express json c=100',
        status: 'ok',
        rounds: 6,
        verdict: { verdict: 'no change', calledBy: 'CPU µs/request', resolved: true, notes: [] },
        verdicts: {
          'req/s': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
          'p99 latency': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
          'CPU µs/request': { verdict: 'no change', change: 0, ci: [-0.01, 0.01] },
        },
        samples: { base: [sample], head: [sample] },
        allocationProfile,
      },
    ],
    gate: { failed: false, failThreshold: 0.1, regressions: [], smallRegressions: [] },
  };

  test('its schema bounds it as the CPU profile', () => {
    const validate = new Ajv({ allErrors: true }).compile(comparisonSchema);
    const benchmark = comparison.benchmarks[0];
    const rows = (count) => Array(count).fill(allocationProfile.grew[0]);
    const valid = (profile) =>
      validate({ ...COMPARISON_FORMAT, ...comparison, benchmarks: [{ ...benchmark, allocationProfile: profile }] });
    assert.equal(valid(allocationProfile), true, JSON.stringify(validate.errors));
    assert.equal(valid({ ...allocationProfile, grew: rows(11) }), false, 'at most ten rows');
    assert.equal(valid({ skipped: 'variant "go-nethttp" cannot be profiled' }), true);
  });

  test('the report and the comment show it collapsed, in bytes, beside the CPU profile', () => {
    const markdown = comparisonMarkdown(comparison, { linkFrom: '/results/x' });
    assert.match(markdown, /<details><summary>Which functions allocate: express json c=100<\/summary>/);
    assert.match(markdown, /\| buildGraph \| lib\/graph\.js:42 \| \(app\) \| 300 \| 900 \| \+600 ± 120 \|/);
    assert.match(markdown, /Chrome DevTools' Memory panel[^\n]*\n- \[profile\/head\/head-7\.heapprofile\]/);
    assert.doesNotMatch(markdown, /Where the CPU time went/, 'no CPU profile was taken');
    const body = renderComment(
      { pr: { headSha: 'a'.repeat(40) }, comparisons: [{ comparison }] },
      { runUrl: 'https://github.example/run', workflow: 'bench-pr' },
    );
    assert.match(body, /<details><summary>Which functions allocate: `express json c=100`<\/summary>/);
    assert.match(body, /\| `buildGraph` \| `lib\/graph\.js:42` \| `\(app\)` \| 300 \| 900 \| \+600 ± 120 \|/);
  });
});

test('which profiles the run after the rounds takes: allocation where heap bytes/request regressed, unless profiles are off', () => {
  const judged = (heap, verdict = 'no change', calledBy = 'CPU µs/request') => ({
    verdict: { verdict, calledBy },
    verdicts: { 'CPU µs/request': { verdict: 'no change' }, 'heap bytes/request': { verdict: heap } },
  });
  const regressed = judged('regression', 'regression', 'heap bytes/request');
  assert.deepEqual(profileKinds({}, regressed), ['cpu', 'allocation'], 'one run takes both');
  assert.deepEqual(profileKinds({}, judged('small regression', 'small regression', 'heap bytes/request')), [
    'cpu',
    'allocation',
  ]);
  assert.deepEqual(profileKinds({}, judged('no change')), []);
  assert.deepEqual(profileKinds({ profile: 'never' }, regressed), [], '--no-profile turns both off');
  assert.deepEqual(profileKinds({ profile: 'never', allocProfile: 'always' }, judged('no change')), ['allocation']);
  assert.deepEqual(profileKinds({ allocProfile: 'never' }, regressed), ['cpu']);
  assert.deepEqual(profileKinds({}, regressed, true), ['cpu'], 'two runtimes: their allocation is not compared');
  assert.deepEqual(profileKinds({ allocProfile: 'always' }, regressed, true), ['cpu', 'allocation']);
});
