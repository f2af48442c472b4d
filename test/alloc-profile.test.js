// The differential allocation profile: bytes allocated per function and per package from a
// .heapprofile (V8's sampling heap profiler), keyed as the CPU profile's functions are, ranked
// by growth per request with its sampling uncertainty, and written in bytes, not µs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
