// The site's Chart.js is a committed copy (gh-pages has no node_modules): it must be the
// installed chart.js, so an upgrade of the dependency cannot leave the site behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('docs/vendor/chart.umd.js is node_modules\' chart.js/dist/chart.umd.js', () => {
  const installed = new URL('../node_modules/chart.js/dist/chart.umd.js', import.meta.url);
  const vendored = new URL('../docs/vendor/chart.umd.js', import.meta.url);
  assert.ok(readFileSync(vendored).equals(readFileSync(installed)),
    'the vendored Chart.js differs from the installed one: cp node_modules/chart.js/dist/chart.umd.js docs/vendor/');
});
