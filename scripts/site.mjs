#!/usr/bin/env node
// `npm run site`: serves the trend site (docs/) over perfgate's local history, which
// appears at /dev/bench/data.js exactly where gh-pages has it. Loopback only.
//   node scripts/site.mjs [--port N]     (default 0: a free port; the URL is printed)
//   PERFGATE_HISTORY=path/to/data.js     (default .perfgate/history/data.js)
//   PERFGATE_VERDICTS=path/to/verdicts.js (default verdicts.js next to the history file;
//                                          optional, served as /dev/bench/verdicts.js)
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../bench/cli/run.js';
import { defaultHistoryPath } from '../bench/history/history-file.js';

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
function fileFor(urlPath, { historyFile, verdictsFile }) {
  if (urlPath === '/dev/bench/data.js') return historyFile;
  if (urlPath === '/dev/bench/verdicts.js') return verdictsFile;
  const file = resolve(docsDir, `.${urlPath}`);
  return file.startsWith(docsDir + sep) ? file : null;
}

function handle(request, response, files) {
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
  const file = fileFor(urlPath, files);
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

export async function startSiteServer({ historyFile = defaultHistoryPath(root), verdictsFile = join(dirname(historyFile), 'verdicts.js'), port = 0 } = {}) {
  const server = createServer((request, response) => handle(request, response, { historyFile, verdictsFile }));
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolveListen);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolveClose) => {
      server.closeAllConnections();
      server.close(resolveClose);
    }),
  };
}

const SITE_COMMAND = {
  name: 'site',
  invocation: 'npm run site --',
  synopsis: '[--port N]',
  summary: "Serves the trend site (docs/) over perfgate's local history, at /dev/bench/data.js as on gh-pages; loopback only.\nPERFGATE_HISTORY names the history file (default .perfgate/history/data.js), PERFGATE_VERDICTS an optional verdicts.js.",
  options: {
    port: { type: 'port', value: 'N', help: 'the port on 127.0.0.1; the URL is printed', default: 0 },
  },
};

async function main({ values: { port } }) {
  // The same file `npm run bench` appends to (PERFGATE_HISTORY or .perfgate/history/data.js).
  const historyFile = defaultHistoryPath(root);
  const verdictsFile = process.env.PERFGATE_VERDICTS ? resolve(root, process.env.PERFGATE_VERDICTS) : undefined;
  const site = await startSiteServer({ historyFile, verdictsFile, port });
  console.log(`perfgate site: ${site.url}`);
  console.log(existsSync(historyFile) ? `data: ${historyFile}` : `no data yet at ${historyFile}: run npm run bench`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => site.close().then(() => process.exit(0)));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runCommand(SITE_COMMAND, main);
