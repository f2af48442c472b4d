// `npm run test:unit` is the edit–test loop's subset of `npm test` (which runs it first): every
// test file but the <name>.e2e.test.js ones, each loaded after test/helpers/unit-guard.js. A unit
// test runs perfgate's code in its own process: it starts no program but git (no perfgate command,
// no server, load generator, database or browser). This checks the convention in every file, so
// that it stays true as tests are added, and that the guard refuses what it must.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(TEST_DIR).filter((name) => name.endsWith('.test.js'));
const isE2e = (name) => name.endsWith('.e2e.test.js');
const source = (name) => readFileSync(new URL(name, import.meta.url), 'utf8');

// Calls that start a program: the first argument, and the second when it is a literal list.
const CHILD_CALL =
  /(?<![.\w])(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork|execFileAsync|spawnAsync)\(\s*([^,)]*)(?:,\s*(\[[^\]]*\]))?/g;
// As the guard allows: git, and Biome through its Node launcher (test/code-style.test.js).
const allowedCall = (first, second = '') => first.trim() === "'git'" || /biome/.test(second);
// What only an end-to-end test does: run perfgate's harness on servers, or drive a browser.
const E2E_HELPERS = /\b(?:runBench|startBench|launchChromium|measureOnce|runSuite|runLoad)\b|helpers\/browser\.js/;

test('a test file is <name>.test.js (unit) or <name>.e2e.test.js', () => {
  assert.ok(files.some(isE2e) && files.some((name) => !isE2e(name)));
  for (const name of files) assert.match(name, /^[a-z0-9-]+(\.e2e)?\.test\.js$/, name);
});

test('a unit test file starts no program but git and uses no end-to-end helper', () => {
  // This file's own calls below are the ones the guard must refuse.
  for (const name of files.filter((each) => !isE2e(each) && each !== 'test-selection.test.js')) {
    const text = source(name);
    for (const [, first, second] of text.matchAll(CHILD_CALL)) {
      const e2eName = name.replace('.test.js', '.e2e.test.js');
      assert.ok(allowedCall(first, second), `${name} starts ${first.trim() || 'a program'}: name it ${e2eName}`);
    }
    assert.doesNotMatch(text, E2E_HELPERS, `${name} runs the harness or a browser: name it *.e2e.test.js`);
  }
});

test('npm run test:unit runs every unit file under the guard; npm test runs them all', () => {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.match(scripts['test:unit'], /--import \.\/test\/helpers\/unit-guard\.js/);
  assert.match(scripts['test:unit'], /-name '\*\.test\.js' ! -name '\*\.e2e\.test\.js'/);
  // npm test: the unit files side by side, then the end-to-end files two at a time (their checks
  // for processes left behind see their own file's only: test/helpers/test-processes.js); it
  // fails when either part does.
  assert.match(
    scripts.test,
    /^npm run test:unit --silent; unit=\$\?; node --test --test-concurrency=2 test\/\*\.e2e\.test\.js && exit \$unit$/,
  );
});

// Last: the guard stays in this process once loaded.
test('the guard refuses any program but git, naming the fix', async () => {
  await import('./helpers/unit-guard.js');
  const { spawnSync } = await import('node:child_process');
  assert.throws(
    () => spawnSync(process.execPath, ['--version']),
    /started "node".*name its file <name>\.e2e\.test\.js/,
  );
  assert.throws(() => spawnSync('wrk', ['-v']), /started "wrk"/);
  assert.equal(spawnSync('git', ['--version'], { encoding: 'utf8' }).status, 0);
});
