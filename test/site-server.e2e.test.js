// `npm run site`: serves site/ with the local history (or --data files) as the page reads them, prints its URL.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startSiteServer } from '../bench/site/server.js';
import { fixturePath } from './fixtures/site/load.js';

const script = fileURLToPath(new URL('../scripts/site.mjs', import.meta.url));
const children = [];
after(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill();
    await once(child, 'exit');
  }
});

// Runs the CLI to its exit (bad input refused): its exit code and what it wrote on stderr.
async function runToExit(args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  return { code, stderr };
}

// Starts the CLI and returns the two lines it prints: the URL, then what data it serves.
async function startCli(env, args = []) {
  const child = spawn(process.execPath, [script, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value;
  const second = (await lines.next()).value;
  return {
    child,
    url: first.match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0],
    pageUrl: first.match(/http:\S+/)?.[0],
    first,
    second,
  };
}

test('the CLI prints its URL and serves the page and the history', async () => {
  const { url, first, second } = await startCli({ PERFGATE_HISTORY: fixturePath('history-data.js.txt') });
  assert.ok(url, `no URL in "${first}"`);
  assert.match(second, /^data: .*history-data\.js\.txt$/);
  const page = await fetch(url);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /text\/html/);
  assert.match(await page.text(), /<script src="vendor\/chart\.umd\.js" defer>/);
  const data = await fetch(`${url}dev/bench/data.js`);
  assert.match(data.headers.get('content-type'), /text\/javascript/);
  assert.equal(await data.text(), readFileSync(fixturePath('history-data.js.txt'), 'utf8'));
  for (const path of [
    'app.js',
    'data-worker.js',
    'style.css',
    'lib/trend.js',
    'shared/change-points.js',
    'vendor/chart.umd.js',
  ]) {
    assert.equal((await fetch(url + path)).status, 200, path);
  }
});

test('without a history the CLI says so and data.js is a 404 (the page then says "no data yet")', async () => {
  const { url, second } = await startCli({ PERFGATE_HISTORY: fixturePath('no-such-history.js') });
  assert.match(second, /no data yet .*: run npm run bench/);
  assert.equal((await fetch(`${url}dev/bench/data.js`)).status, 404);
});

test('--data FILE...: one file is served where the action keeps it, several side by side and named in ?data=', async () => {
  const history = fixturePath('history-data.js.txt');
  const empty = fixturePath('empty-data.js.txt');
  const one = await startCli({}, ['--data', empty]);
  assert.equal(one.pageUrl, one.url);
  assert.equal(await (await fetch(`${one.url}dev/bench/data.js`)).text(), readFileSync(empty, 'utf8'));
  const two = await startCli({}, ['--data', history, empty]);
  assert.equal(
    new URL(two.pageUrl).search,
    '?data=data%2Fhistory-data.js.txt%2Fdata.js&data=data%2Fempty-data.js.txt%2Fdata.js',
  );
  assert.match(two.second, /^data: .*history-data\.js\.txt, .*empty-data\.js\.txt$/);
  for (const path of new URL(two.pageUrl).searchParams.getAll('data'))
    assert.equal((await fetch(two.url + path)).status, 200, path);
});

test('--data of a missing file is refused with the fix', async () => {
  const { code, stderr } = await runToExit(['--data', fixturePath('no-such-data.js')]);
  assert.equal(code, 2);
  assert.match(stderr, /no-such-data\.js: no such file; give the path of a data\.js/);
});

test('nothing outside site/ is served', async (t) => {
  const site = await startSiteServer({ dataFiles: [fixturePath('history-data.js.txt')] });
  t.after(site.close);
  for (const path of ['..%2fpackage.json', '%2e%2e/%2e%2e/package.json', 'lib/../../package.json', '%E0%A4%A']) {
    assert.ok([400, 404].includes((await fetch(site.url + path)).status), path);
  }
  assert.equal((await fetch(site.url, { method: 'POST' })).status, 405);
});

test('--port must be a port number', async () => {
  const { code, stderr } = await runToExit(['--port', 'eighty']);
  assert.equal(code, 2);
  assert.match(stderr, /--port must be a port number/);
});
