// site/ is served as it is, under /<repository>/ on GitHub Pages: a page module may import only
// files inside site/, and site/shared/ (which perfgate's commands import too) must run in both
// the browser and Node, so it imports nothing but its own modules.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SITE = fileURLToPath(new URL('../site/', import.meta.url));
const IMPORT = /(?:^import [^;]*? from |^export [^;]*? from |import\()\s*'([^']+)'/gms;

const modules = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.js') && !file.startsWith('vendor'))
    .map((file) => join(dir, file));
const importsOf = (file) => [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, spec]) => spec);

test("every import of the site's modules stays inside site/", () => {
  const outside = modules(SITE).flatMap((file) =>
    importsOf(file)
      .map((spec) => join(file, '..', spec))
      .filter((target) => relative(SITE, target).startsWith('..'))
      .map((target) => `${relative(SITE, file)} -> ${target}`),
  );
  assert.deepEqual(outside, []);
});

test('site/shared/ imports only site/shared/: no Node built-ins, no packages, no page modules', () => {
  const shared = join(SITE, 'shared');
  const foreign = modules(shared).flatMap((file) =>
    importsOf(file)
      .filter((spec) => !spec.startsWith('./'))
      .map((spec) => `${relative(SITE, file)} imports ${spec}`),
  );
  assert.deepEqual(foreign, []);
});
