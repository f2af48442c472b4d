// The site's Chart.js is a committed copy (gh-pages has no node_modules): it must be the
// installed chart.js, so an upgrade of the dependency cannot leave the site behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test("site/vendor/chart.umd.js is node_modules' chart.js/dist/chart.umd.js", () => {
  const installed = new URL('../node_modules/chart.js/dist/chart.umd.js', import.meta.url);
  const vendored = new URL('../site/vendor/chart.umd.js', import.meta.url);
  assert.ok(
    readFileSync(vendored).equals(readFileSync(installed)),
    'the vendored Chart.js differs from the installed one: cp node_modules/chart.js/dist/chart.umd.js site/vendor/',
  );
});

// index.html preloads app.js's modules so they load side by side; a module added to the
// import graph but not to that list would load late, one missing from the graph is dead.
test('index.html preloads exactly the modules app.js imports', () => {
  const docs = new URL('../site/', import.meta.url);
  const graph = new Set();
  const walk = (url) => {
    for (const [, spec] of readFileSync(url, 'utf8').matchAll(/^import [^;]*? from '(\.[^']+)';/gms)) {
      const target = new URL(spec, url);
      if (!graph.has(target.href)) {
        graph.add(target.href);
        walk(target);
      }
    }
  };
  walk(new URL('app.js', docs));
  const html = readFileSync(new URL('index.html', docs), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map(
    ([, href]) => new URL(href, docs).href,
  );
  assert.deepEqual(preloaded.sort(), [...graph].sort());
});
