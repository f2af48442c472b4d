// The trend site's HTTP server: site/ and the data.js files it shows, on loopback. One file
// appears at /dev/bench/data.js, where gh-pages has it; several at /data/<name>/data.js, with
// the page's ?data= naming them all (npm run site, and the site's tests).
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DATA_PATH, sourceLabels } from '../../site/shared/sources.js';
import { defaultHistoryPath } from '../history/history-file.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const siteDir = join(root, 'site');

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
  const file = resolve(siteDir, `.${urlPath}`);
  return file.startsWith(siteDir + sep) ? file : null;
}

// Where each data file appears: one at the action's default place, several side by side.
function dataMounts(dataFiles) {
  if (dataFiles.length === 1) return [[DEFAULT_DATA_PATH, dataFiles[0]]];
  return sourceLabels(dataFiles).map((label, index) => [
    `data/${label.replace(/[^\w.-]+/g, '-')}/data.js`,
    dataFiles[index],
  ]);
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
  // content-length lets the page show how far a big data.js has downloaded.
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(urlPath)] ?? 'application/octet-stream',
    'content-length': statSync(file).size,
    'cache-control': 'no-store',
  });
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
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(resolveClose);
      }),
  };
}
