// The file system of a sandboxed process (bench/measurement/sandbox/view.js) without bubblewrap: what a copy
// of the tree holds, and what closing the view reports of what was written into its root. The
// sandboxed process itself is test/sandbox.e2e.test.js's.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { closeView, openView, viewParent, viewTree } from '../bench/measurement/sandbox/view.js';
import { tempDir } from './helpers/harness.js';

function sideTree() {
  const tree = tempDir();
  mkdirSync(join(tree, 'servers'));
  writeFileSync(join(tree, 'db.json'), '{"requests":0}');
  writeFileSync(join(tree, 'servers', 'server.js'), '');
  symlinkSync('../db.json', join(tree, 'servers', 'data.json'));
  mkdirSync(join(tree, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(join(tree, 'node_modules', 'left-pad', 'index.js'), '');
  mkdirSync(join(tree, '.perfgate', 'build'), { recursive: true });
  mkdirSync(join(tree, 'servers', '.perfgate'));
  return tree;
}

test("a view holds a copy of the side's tree, links as they are, node_modules and .perfgate left to be shared read-only", () => {
  const tree = sideTree();
  const view = openView({ tree }, { env: {} });
  const copy = join(view.root, tree);
  assert.equal(readFileSync(join(copy, 'servers', 'data.json'), 'utf8'), '{"requests":0}');
  // perfgate's own folder is shared at the top only; a side's folder of that name deeper is its own.
  assert.deepEqual(view.tree.shared.sort(), ['.perfgate', 'node_modules']);
  assert.ok(existsSync(join(copy, 'servers', '.perfgate')));
  assert.equal(existsSync(join(copy, 'node_modules', 'left-pad')), false, 'a mount point, not a copy');
  assert.equal(closeView(view), null);
  assert.equal(existsSync(view.dir), false);
});

// sandbox-overhead named perfgate's checkout '/…/main/' (a URL's path): bound as a second path after
// the shared directories, the copy hid node_modules and every variant was "not installed".
test('the shared directories are bound over the copy at every path the tree is named by, a trailing slash or a link', () => {
  const tree = sideTree();
  const pairs = (args) => {
    const binds = [];
    for (let at = 0; at < args.length; at += 3) binds.push([args[at], args[at + 2]]);
    return binds;
  };
  const slashed = openView({ tree: `${tree}/` }, { env: {} });
  assert.deepEqual(pairs(viewTree(slashed)).sort(), [
    ['--ro-bind', join(tree, '.perfgate')],
    ['--ro-bind', join(tree, 'node_modules')],
  ]);
  closeView(slashed);
  const link = join(tempDir(), 'side');
  symlinkSync(tree, link);
  const linked = openView({ tree: link }, { env: {} });
  const binds = pairs(viewTree(linked));
  assert.deepEqual(binds[0], ['--bind', link], 'the copy at the link path first');
  assert.deepEqual(
    binds
      .slice(1)
      .map(([, to]) => to)
      .sort(),
    [join(link, '.perfgate'), join(link, 'node_modules'), join(tree, '.perfgate'), join(tree, 'node_modules')].sort(),
  );
  closeView(linked);
});

test("closing a view names what was written outside the tree's copy, by the harness's place it aimed at", () => {
  const tree = sideTree();
  const results = join(tempDir(), 'results');
  const home = tempDir('perfgate-home-');
  const view = openView(
    { tree, watched: [{ path: results, what: 'the results directory' }] },
    { env: { HOME: home, GITHUB_OUTPUT: join(home, 'runner', 'output') } },
  );
  // What a process wrote: into its tree (allowed), into decoys and beside its tree (not).
  writeFileSync(join(view.root, tree, 'db.json'), '{"requests":1}');
  writeFileSync(join(view.root, results, 'comparison.json'), '{}');
  writeFileSync(join(view.root, home, 'runner', 'output'), 'regression=false');
  const beside = join(dirname(tree), `perfgate-view-test-${process.pid}`);
  mkdirSync(join(view.root, beside));
  // A directory closed to the harness does not keep it from removing the view.
  chmodSync(join(view.root, beside), 0);
  const wrote = closeView(view);
  assert.match(wrote, /^wrote outside its tree and scratch directory \(into a throwaway copy/);
  for (const named of [
    `${join(results, 'comparison.json')} (the results directory)`,
    `${join(home, 'runner', 'output')} (the folder of GITHUB_OUTPUT)`,
    beside,
  ])
    assert.ok(wrote.includes(named), `${named} in ${wrote}`);
  assert.ok(!wrote.includes('db.json'), wrote);
  assert.equal(readFileSync(join(tree, 'db.json'), 'utf8'), '{"requests":0}', 'the side tree itself is unchanged');
  assert.equal(existsSync(view.dir), false);
  assert.equal(closeView(view), null, 'closing twice says nothing more');
});

test('views are made in the RAM file system when it has room, else in the temporary directory', () => {
  const view = openView({ tree: sideTree() }, { env: {} });
  assert.equal(dirname(view.dir), viewParent());
  closeView(view);
  const ram = tempDir(); // a stand-in: any writable file system with room
  assert.equal(viewParent(ram), ram);
  assert.equal(viewParent(join(ram, 'missing')), tmpdir());
});
