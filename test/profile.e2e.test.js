// The differential CPU profile: self time per function from a .cpuprofile, the ranking of two
// sides, and a real profiled run of two versions of a server, where the function that one
// commit added must come first with its file and line.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { mergeSelfTimes, packageOf, scriptPath, selfTimes } from '../bench/comparison/profile/cpuprofile.js';
import { differentialProfile } from '../bench/comparison/profile/differential.js';
import { profileBenchmark } from '../bench/comparison/profile/profile-benchmark.js';
import { profileMarkdown } from '../bench/comparison/profile/report.js';
import { loadBuiltInVariant } from '../bench/measurement/variants.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { PROFILED_SETTINGS, PROFILED_SPEC, profiledMeasurement } from './helpers/profiled-benchmark.js';
import { makeServersRepository } from './helpers/servers-repo.js';

const frame = (functionName, url = '', lineNumber = -1) => ({
  functionName,
  scriptId: '0',
  url,
  lineNumber,
  columnNumber: 0,
});

// root -> a (app) -> b (express); samples: a, b, b, (idle); 10 µs apart, profile ends 10 µs after the last.
const PROFILE = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4] },
    { id: 2, callFrame: frame('handle', 'file:///repo/side/app.js', 9), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///repo/side/node_modules/express/lib/x.js', 0), children: [] },
    { id: 4, callFrame: frame('(idle)'), children: [] },
  ],
  startTime: 1000,
  endTime: 1050,
  samples: [2, 3, 3, 4],
  timeDeltas: [10, 10, 10, 10],
};

describe('self time per function', () => {
  test('each sample lasts until the next, idle and root are left out, paths are relative to the side', () => {
    const functions = [...selfTimes(PROFILE, { root: '/repo/side' }).values()];
    assert.deepEqual(
      functions.map(({ functionName, path, line, package: pkg, selfMicros }) => [
        functionName,
        path,
        line,
        pkg,
        selfMicros,
      ]),
      [
        ['handle', 'app.js', 10, '(app)', 10],
        ['parse', 'lib/x.js', 1, 'express', 20],
      ],
    );
  });

  test("a package's function is the same on a side that reuses the project's node_modules and on one that installed its own", () => {
    // The base side links the project's node_modules (absolute paths outside its root); the head
    // installed its own under its root; a --dep side keeps its version in an isolated folder.
    const side = (root, express) =>
      selfTimes(
        {
          ...PROFILE,
          nodes: PROFILE.nodes.map((node) => {
            if (node.id === 2) return { ...node, callFrame: frame('handle', pathToFileURL(`${root}/app.js`).href, 9) };
            if (node.id === 3)
              return { ...node, callFrame: frame('parse', pathToFileURL(`${express}/lib/x.js`).href, 0) };
            return node;
          }),
        },
        { root },
      );
    const sides = [
      side('/tmp/compare/base', '/home/ada/shop/node_modules/express'),
      side('/tmp/compare/head', '/tmp/compare/head/node_modules/express'),
      side('/tmp/compare/dep', '/tmp/compare/dep/.perfgate-isolated/node_modules/express'),
    ];
    const keys = sides.map((functions) => [...functions.keys()].find((key) => key.startsWith('parse')));
    assert.equal(new Set(keys).size, 1, "one identity for express's parse on every side");
    assert.deepEqual(
      sides.map((functions) => [...functions.values()].map(({ path, package: pkg }) => `${pkg} ${path}`)),
      Array(3).fill(['(app) app.js', 'express lib/x.js']),
    );
    const diff = differentialProfile({
      base: { functions: sides[0], requests: 1 },
      head: { functions: sides[1], requests: 1 },
    });
    assert.deepEqual([diff.grew, diff.shrank], [[], []]);
  });

  test('processes of one side add up', () => {
    const one = selfTimes(PROFILE, { root: '/repo/side' });
    const merged = mergeSelfTimes([one, one]);
    assert.equal([...merged.values()].find((entry) => entry.functionName === 'parse').selfMicros, 40);
  });

  test('packages and paths', () => {
    assert.equal(packageOf('node_modules/@koa/router/lib/a.js'), '@koa/router');
    assert.equal(packageOf('node_modules/a/node_modules/b/i.js'), 'b');
    assert.equal(packageOf('node:internal/streams/writable'), 'node');
    assert.equal(packageOf(''), '(native)');
    assert.equal(scriptPath(pathToFileURL('/x/y/z.js').href, '/x'), 'y/z.js');
    assert.equal(scriptPath(pathToFileURL('/x/y/z.js').href, '/x/y/z'), '/x/y/z.js');
    assert.equal(scriptPath(pathToFileURL('/p/node_modules/@koa/router/lib/a.js').href, '/x'), 'lib/a.js');
    assert.equal(scriptPath('node:internal/http', '/x'), 'node:internal/http');
  });
});

describe('differential profile', () => {
  const functions = (entries) =>
    new Map(
      entries.map(([name, selfMicros]) => [
        name,
        { functionName: name, path: `${name}.js`, line: 1, package: '(app)', selfMicros },
      ]),
    );

  test('ranks by growth of µs per request, and lists what shrank', () => {
    const diff = differentialProfile({
      base: {
        functions: functions([
          ['a', 1000],
          ['b', 500],
          ['c', 300],
        ]),
        requests: 100,
      },
      head: {
        functions: functions([
          ['a', 1000],
          ['b', 2000],
          ['new', 600],
        ]),
        requests: 200,
      },
    });
    assert.deepEqual(
      diff.grew.map((row) => [row.functionName, row.base, row.head]),
      [
        ['b', 5, 10],
        ['new', 0, 3],
      ],
    );
    assert.deepEqual(
      diff.shrank.map((row) => [row.functionName, row.change]),
      [
        ['a', -5],
        ['c', -3],
      ],
    );
    assert.deepEqual(diff.totals, { base: 18, head: 18 });
  });

  test('an anonymous function that code added above it moved is one function, paired in line order', () => {
    const anonymous = (entries) =>
      new Map(
        entries.map(([line, column, selfMicros]) => [
          `${line}:${column}`,
          { functionName: '(anonymous)', path: 'app.js', line, column, package: '(app)', selfMicros },
        ]),
      );
    const diff = differentialProfile({
      // Two routes at column 26 and one callback at column 3; head added two lines at the top.
      base: {
        functions: anonymous([
          [5, 26, 100],
          [9, 26, 300],
          [12, 3, 50],
        ]),
        requests: 1,
      },
      head: {
        functions: anonymous([
          [7, 26, 100],
          [11, 26, 900],
          [14, 3, 50],
          [20, 3, 70],
        ]),
        requests: 1,
      },
    });
    assert.deepEqual(
      diff.grew.map((row) => [row.line, row.base, row.head]),
      [
        [11, 300, 900],
        // Column 3 has one function in base and two in head: not paired by guess.
        [20, 0, 70],
        [14, 0, 50],
      ],
    );
    assert.deepEqual(
      diff.shrank.map((row) => [row.line, row.base, row.head]),
      [[12, 50, 0]],
    );
  });

  test('a side with no requests is an error, not a division by zero', () => {
    assert.throws(
      () =>
        differentialProfile({
          base: { functions: new Map(), requests: 0 },
          head: { functions: new Map(), requests: 5 },
        }),
      /completed no requests/,
    );
  });
});

describe('profiling two versions of a server', () => {
  const spec = PROFILED_SPEC;
  const settings = PROFILED_SETTINGS;

  test('the function the head commit added comes first, with its file and line', async () => {
    const { repo, shas, slowLine } = makeServersRepository(['slower']);
    const { execFileSync } = await import('node:child_process');
    const roots = { base: tempDir('perfgate-side-'), head: tempDir('perfgate-side-') };
    for (const [side, sha] of [
      ['base', shas[0]],
      ['head', shas[1]],
    ]) {
      execFileSync('sh', [
        '-c',
        `git -C "${repo}" archive ${sha} servers | tar -x -C "${roots[side]}" && ln -s "${join(PROJECT_ROOT, 'node_modules')}" "${roots[side]}/node_modules"`,
      ]);
    }
    const variants = {};
    for (const side of ['base', 'head'])
      variants[side] = await loadBuiltInVariant('node-http', pathToFileURL(join(roots[side], 'servers/')));
    const outDir = tempDir();
    const profile = await profileBenchmark({
      spec,
      variants,
      roots,
      measurement: await profiledMeasurement(),
      settings,
      outDir,
    });
    assert.equal(profile.skipped, undefined, profile.skipped);
    const [first] = profile.grew;
    assert.equal(first.functionName, 'hashBodySlowly');
    assert.equal(`${first.path}:${first.line}`, `servers/routes/http-routes.js:${slowLine}`);
    assert.equal(first.base, 0);
    assert.ok(profile.requests.base > 0 && profile.requests.head > 0);
    assert.equal(profile.files.length, 2);
    for (const file of [...profile.files, ...profile.flameGraphs]) assert.ok(existsSync(file), file);
    assert.ok(existsSync(join(outDir, 'profile', 'speedscope', 'index.html')));
    const markdown = profileMarkdown(profile, { linkFrom: outDir }).join('\n');
    assert.match(markdown, /\| hashBodySlowly \| servers\/routes\/http-routes\.js:\d+ \| \(app\) \| 0\.00 \|/);
    assert.match(markdown, /\[flame graph\]\(profile\/head\/head-\d+\.cpuprofile\.html\)/);
    JSON.parse(readFileSync(profile.files[1], 'utf8'));
    assert.deepEqual(leftoverServers(), []);
  });

  test('a variant that is not a Node.js process is skipped with the reason', async (t) => {
    const go = await loadBuiltInVariant('go-nethttp');
    const reason = go.unavailable;
    if (reason) return t.skip(reason);
    const profile = await profileBenchmark({
      spec: { ...spec, variant: 'go-nethttp', id: 'go-nethttp hello c=10' },
      variants: { base: go, head: go },
      roots: { base: PROJECT_ROOT, head: PROJECT_ROOT },
      measurement: await profiledMeasurement(),
      settings,
      outDir: tempDir(),
    });
    assert.match(profile.skipped, /variant "go-nethttp" cannot be profiled: it runs no Node\.js process/);
    assert.deepEqual(leftoverServers(), []);
  });
});
