// The differential profile by package: each sample charged to the package whose code is
// nearest on its stack, the change ranked with its sampling uncertainty, and the first line
// a reader sees naming the package that grew.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergeSelfTimes, packageTimes, selfTimes } from '../bench/comparison/profile/cpuprofile.js';
import { differentialProfile } from '../bench/comparison/profile/differential.js';
import { profileTables } from '../bench/comparison/profile/report.js';

const frame = (functionName, url = '') => ({ functionName, scriptId: '0', url, lineNumber: 0, columnNumber: 0 });

// root -> handle (app) -> helmet's middleware -> node's setHeader -> a native call;
//      -> express's router -> node's write; and V8's garbage collector under the root.
const NODES = [
  { id: 1, callFrame: frame('(root)'), children: [2, 7] },
  { id: 2, callFrame: frame('handle', 'file:///app/server.js'), children: [3, 5] },
  { id: 3, callFrame: frame('helmet', 'file:///app/node_modules/helmet/index.cjs'), children: [4] },
  { id: 4, callFrame: frame('setHeader', 'node:_http_outgoing'), children: [8] },
  { id: 5, callFrame: frame('router', 'file:///app/node_modules/express/lib/router.js'), children: [6] },
  { id: 6, callFrame: frame('write', 'node:_http_outgoing'), children: [] },
  { id: 7, callFrame: frame('(garbage collector)'), children: [] },
  { id: 8, callFrame: frame('ValidateHeaderValue'), children: [] },
];

// One sample per entry of `samples`, 10 µs each.
const profileOf = (samples) => ({
  nodes: NODES,
  startTime: 0,
  endTime: (samples.length + 1) * 10,
  samples,
  timeDeltas: samples.map(() => 10),
});

const repeat = (id, times) => Array(times).fill(id);

describe('time per package', () => {
  test("node's own and native time count for the package that called them; the garbage collector stays its own", () => {
    const packages = packageTimes(profileOf([3, 4, 8, 6, 6, 7, 2]));
    assert.deepEqual(
      Object.fromEntries([...packages].map(([name, { selfMicros, samples }]) => [name, [selfMicros, samples]])),
      { helmet: [30, 3], express: [20, 2], '(garbage collector)': [10, 1], '(app)': [10, 1] },
    );
  });

  test('processes of one side add up by package', () => {
    const one = packageTimes(profileOf([3, 7]));
    assert.deepEqual(mergeSelfTimes([one, one]).get('helmet'), { package: 'helmet', selfMicros: 20, samples: 2 });
  });

  test('a function keeps its sample count, for its uncertainty', () => {
    const functions = selfTimes(profileOf([3, 3, 6]), { root: '/app' });
    assert.deepEqual(
      [...functions.values()].map(({ functionName, samples }) => [functionName, samples]),
      [
        ['helmet', 2],
        ['write', 1],
      ],
    );
  });
});

describe('differential profile by package', () => {
  // Base: no helmet; head: helmet's middleware and its headers in 40 of 100 samples per request.
  const side = (samples) => {
    const profile = profileOf(samples);
    return { functions: selfTimes(profile, { root: '/app' }), packages: packageTimes(profile), requests: 10 };
  };
  const base = side([...repeat(6, 60), ...repeat(7, 40)]);
  const head = side([...repeat(6, 60), ...repeat(7, 40), ...repeat(4, 25), ...repeat(8, 15)]);

  test('a new package leads, with its growth from 0 and an uncertainty', () => {
    const diff = differentialProfile({ base, head });
    const helmet = diff.packages.find((row) => row.package === 'helmet');
    assert.deepEqual([helmet.base, helmet.head, helmet.change], [0, 40, 40]);
    assert.ok(helmet.uncertainty > 0 && helmet.uncertainty < helmet.change);
    assert.equal(diff.packages[0].package, 'helmet');
    assert.equal(diff.packages.find((row) => row.package === 'express').change, 0);
  });

  test('the report names the package first, in words checked against its row', () => {
    const lines = profileTables(differentialProfile({ base, head }), (text) => text);
    const headline = lines.findIndex((line) => line.startsWith('Grew most: helmet: +40.0 µs/request, 0.00 → 40.0.'));
    assert.ok(headline >= 0, lines.join('\n'));
    assert.ok(headline < lines.indexOf('**Grew most**'), 'packages come before functions');
    assert.ok(lines.some((line) => /^\| helmet \| 0\.00 \| 40\.0 \| \+40\.0 ± \d/.test(line)));
  });

  test('growth within the sampling noise is said to be noise, and heads nothing', () => {
    const few = (samples) => {
      const profile = profileOf(samples);
      return { functions: selfTimes(profile), packages: packageTimes(profile), requests: 1 };
    };
    const diff = differentialProfile({ base: few([3, 6]), head: few([3, 3, 6]) });
    const lines = profileTables(diff, (text) => text);
    assert.ok(lines.includes("No package of your code grew beyond the profile's sampling noise."), lines.join('\n'));
    assert.ok(lines.some((line) => line.startsWith('| helmet |') && line.endsWith('(noise) |')));
  });

  test('a steady growth ranks above a larger one that is rarely sampled', () => {
    const row = (name, selfMicros, samples) => [
      name,
      { functionName: name, path: `${name}.js`, line: 1, package: '(app)', selfMicros, samples },
    ];
    const diff = differentialProfile({
      base: { functions: new Map([row('steady', 1000, 100), row('rare', 0, 0)]), requests: 1 },
      head: { functions: new Map([row('steady', 1300, 130), row('rare', 400, 1)]), requests: 1 },
    });
    assert.deepEqual(
      diff.grew.map((each) => each.functionName),
      ['steady', 'rare'],
    );
  });
});

// A package row as the differential profile gives it (an artifact's may lack the uncertainty),
// and the report's lines for a profile of those rows alone.
const packageRow = (name, base, head, uncertainty) => ({ package: name, base, head, change: head - base, uncertainty });
const linesFor = (packages) =>
  profileTables(
    {
      packages,
      grew: [],
      shrank: [],
      totals: {
        base: packages.reduce((sum, row) => sum + row.base, 0),
        head: packages.reduce((sum, row) => sum + row.head, 0),
      },
    },
    (text) => text,
  );

test("the headline names your code's package before the runtime's own rows, which it lists after", () => {
  const lines = linesFor([
    packageRow('node', 100, 357, 106),
    packageRow('helmet', 0, 144, 28),
    packageRow('(garbage collector)', 50, 52, 10),
  ]);
  assert.ok(
    lines.includes(
      "Grew most: helmet: +144 µs/request, 0.00 → 144. Also grew, with no package's code on the stack: node +257 ± 106; what a package leaves the runtime to do later (headers written, objects collected) is counted there.",
    ),
    lines.join('\n'),
  );
});

test('the headline names the package whose growth is most certain, not the largest point estimate', () => {
  const lines = linesFor([packageRow('send', 542, 711, 73.4), packageRow('helmet', 0, 153, 24.4)]);
  assert.ok(lines.includes('Grew most: helmet: +153 µs/request, 0.00 → 153.'), lines.join('\n'));
});

test("the headline ranks an artifact's package rows that carry no uncertainty by their change", () => {
  const lines = linesFor([packageRow('send', 542, 600), packageRow('helmet', 0, 153)]);
  assert.ok(lines.includes('Grew most: helmet: +153 µs/request, 0.00 → 153.'), lines.join('\n'));
});
