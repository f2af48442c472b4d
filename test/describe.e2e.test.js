// The describe step: what the harness knows of a checkout's built-in variants comes from a child
// process that imports them (servers/describe.js), as JSON checked by a schema; the harness
// process never imports a variant module.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { loadBuiltInVariants } from '../bench/measurement/variants.js';
import { tempDir } from './helpers/harness.js';

// A servers/ directory whose variants are the given module texts.
function serversDir(variants) {
  const dir = join(tempDir('perfgate-describe-'), 'servers');
  mkdirSync(join(dir, 'variants'), { recursive: true });
  for (const [name, text] of Object.entries(variants)) writeFileSync(join(dir, 'variants', `${name}.js`), text);
  return pathToFileURL(`${dir}/`);
}

test("this checkout's variants as described: defaults filled in, a variant's own command and role kept", async () => {
  const [nodeHttp, bun, backend] = await loadBuiltInVariants(['node-http', 'express-bun', 'mock-backend']);
  assert.equal(nodeHttp.launch.command[0], process.execPath);
  assert.match(nodeHttp.launch.command[1], /servers\/launch\.js$/);
  assert.ok(nodeHttp.scenarios.includes('hello') && !nodeHttp.scenarios.includes('db'));
  assert.equal(bun.ownRuntime, 'bun', 'express on the bun runtime (bench/measurement/runtime/variant.js places it)');
  assert.equal(bun.launch.command[0], process.execPath);
  assert.equal(backend.role, 'backend');
});

test('a variant module runs in the describe process, never in the harness', async () => {
  const marker = join(tempDir(), 'imported-by');
  const dir = serversDir({
    spy: `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, String(process.pid));\nconsole.log('noise on stdout');\nexport const packages = ['left-pad'];\nexport const unavailable = async () => 'not today';\nsetInterval(() => {}, 1000);\n`,
  });
  const [spy] = await loadBuiltInVariants(['spy'], { serversDir: dir });
  assert.notEqual(readFileSync(marker, 'utf8'), String(process.pid));
  assert.deepEqual(spy.packages, ['left-pad']);
  assert.equal(spy.unavailable, 'not today');
});

test('an answer outside the schema, or a describe step that fails, is a clear error', async () => {
  const expectFailure = async (text, pattern) =>
    assert.rejects(loadBuiltInVariants(['odd'], { serversDir: serversDir({ odd: text }) }), (error) => {
      assert.equal(error.code, 'PG_DESCRIBE_FAILED');
      assert.match(error.message, pattern);
      return true;
    });
  await expectFailure("export const role = 'admin';\n", /role must be equal to one of the allowed values/);
  await expectFailure('export const command = () => [];\n', /command must NOT have fewer than 1 items/);
  await expectFailure("throw new Error('broken module');\n", /exited with code 1: .*broken module/s);
  await expectFailure("process.stdout.write('{}'); process.exit(0);\n", /last line is not JSON|must have required/);
});

test('a missing framework package makes the variant unavailable with the install command', async () => {
  const [variant] = await loadBuiltInVariants(['needs'], {
    serversDir: serversDir({ needs: "import 'no-such-package-perfgate';\n" }),
  });
  assert.match(variant.unavailable, /npm install --save-dev no-such-package-perfgate/);
});
