#!/usr/bin/env node
// `npm run site`: serves the trend site (docs/) over perfgate's local history, which
// appears at /dev/bench/data.js exactly where gh-pages has it, or over any data.js files
// (github-action-benchmark's gh-pages format, e.g. copies of several branches). Loopback only.
//   node scripts/site.mjs [--port N] [--data FILE...]
//     --port   default 0: a free port; the URL is printed
//     --data   data.js files to show (default: PERFGATE_HISTORY or .perfgate/history/data.js);
//              one is served as /dev/bench/data.js, several as /data/<name>/data.js with
//              the page's ?data= naming them all
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultHistoryPath } from '../bench/history/history-file.js';
import { DEFAULT_DATA_PATH, sourceLabels } from '../docs/lib/sources.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = join(root, 'docs');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

// URL path -> file on disk, or null when it is not ours to serve.
function fileFor(urlPath, mounts) {
  if (mounts.has(urlPath)) return mounts.get(urlPath);
  const file = resolve(docsDir, `.${urlPath}`);
  return file.startsWith(docsDir + sep) ? file : null;
}

// Where each data file appears: one at the action's default place, several side by side.
export function dataMounts(dataFiles) {
  if (dataFiles.length === 1) return [[DEFAULT_DATA_PATH, dataFiles[0]]];
  return sourceLabels(dataFiles).map((label, index) => [`data/${label.replace(/[^\w.-]+/g, '-')}/data.js`, dataFiles[index]]);
}

function handle(request, response, mounts) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let urlPath;
  try {
    // A folder's page is its index.html.
    urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname).replace(/\/$/, '/index.html');
  } catch {
    response.writeHead(400).end('bad request\n');
    return;
  }
  const file = fileFor(urlPath, mounts);
  if (!file || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  // The type follows the URL, not the file: the history may be stored under any name.
  // no-store: reloading the page after `npm run bench` must show the new run.
  response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(urlPath)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file).pipe(response);
}

export async function startSiteServer({ dataFiles = [defaultHistoryPath(root)], port = 0 } = {}) {
  const mounted = dataMounts(dataFiles);
  const mounts = new Map(mounted.map(([path, file]) => [`/${path}`, file]));
  const server = createServer((request, response) => handle(request, response, mounts));
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolveListen);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  const query = mounted.length > 1 ? `?${mounted.map(([path]) => `data=${encodeURIComponent(path)}`).join('&')}` : '';
  return {
    url,
    // The page's address with every data file named.
    pageUrl: url + query,
    close: () => new Promise((resolveClose) => {
      server.closeAllConnections();
      server.close(resolveClose);
    }),
  };
}

async function main() {
  const { values, positionals } = parseArgs({ options: { port: { type: 'string', default: '0' }, data: { type: 'string', multiple: true } }, allowPositionals: true });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`site: --port must be a port number, got "${values.port}"`);
    process.exit(2);
  }
  // --data a.js b.js: the files after --data are positionals to the parser.
  const given = [...(values.data ?? []), ...positionals].map((file) => resolve(file));
  const missing = given.filter((file) => !existsSync(file));
  if (missing.length) {
    console.error(`site: --data ${missing.join(', ')}: no such file; give the path of a data.js (github-action-benchmark's dev/bench/data.js or perfgate's .perfgate/history/data.js)`);
    process.exit(2);
  }
  // Default: the same file `npm run bench` appends to (PERFGATE_HISTORY or .perfgate/history/data.js).
  const dataFiles = given.length ? given : [defaultHistoryPath(root)];
  const site = await startSiteServer({ dataFiles, port });
  console.log(`perfgate site: ${site.pageUrl}`);
  console.log(dataFiles.every((file) => existsSync(file)) ? `data: ${dataFiles.join(', ')}` : `no data yet at ${dataFiles[0]}: run npm run bench`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => site.close().then(() => process.exit(0)));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
