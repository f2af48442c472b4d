// The tree stays formatted and lint-clean (Biome, biome.json): `npm run format` fixes what it can.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('biome finds no formatting or lint problem in the tree', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/@biomejs/biome/bin/biome', 'ci', '--error-on-warnings', '--max-diagnostics=20', '.'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\nrun \`npm run format\` to fix formatting`);
});
