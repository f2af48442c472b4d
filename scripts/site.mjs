#!/usr/bin/env node
// `npm run site`: serves the trend site (docs/) over perfgate's local history, which
// appears at /dev/bench/data.js exactly where gh-pages has it, or over any data.js files
// (github-action-benchmark's gh-pages format, e.g. copies of several branches). Loopback only.
// One file is served as /dev/bench/data.js, several as /data/<name>/data.js with the page's
// ?data= naming them all. `npm run site -- --help` lists the options.
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../bench/cli/run.js';
import { defaultHistoryPath } from '../bench/history/history-file.js';
import { repositoryRoot } from '../bench/project/config.js';
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
function dataMounts(dataFiles) {
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
    close: () => new Promise((resolveClose) => {
      server.closeAllConnections();
      server.close(resolveClose);
    }),
  };
}

const SITE_COMMAND = {
  name: 'site',
  invocation: 'npm run site --',
  synopsis: '[--port N] [--data FILE...]',
  summary: "Serves the trend site (docs/) over data.js files in github-action-benchmark's gh-pages format; loopback only.\n" +
    'Without --data: perfgate\'s local history (PERFGATE_HISTORY, default .perfgate/history/data.js), at /dev/bench/data.js as on gh-pages.\n' +
    'Several files (e.g. one per branch) show side by side: the printed URL names them all in ?data=.',
  options: {
    port: { type: 'port', value: 'N', help: 'the port on 127.0.0.1; the URL is printed', default: 0 },
    data: { type: 'string', multiple: true, value: 'FILE', help: 'a data.js to show; repeat it, or list the files after it' },
  },
  // --data a.js b.js: the files after the first are positionals to the parser.
  positionals: { max: Infinity, value: 'FILE' },
  check: (values, positionals) => [...(values.data ?? []), ...positionals]
    .filter((file) => !existsSync(file))
    .map((file) => `--data ${file}: no such file; give the path of a data.js (github-action-benchmark's dev/bench/data.js or perfgate's .perfgate/history/data.js)`),
};

async function main({ values: { port, data }, positionals }) {
  const given = [...(data ?? []), ...positionals].map((file) => resolve(file));
  // Default: the same file `npm run bench` appends to (PERFGATE_HISTORY or .perfgate/history/data.js),
  // in the repository it runs in: perfgate's own, or a user's with perfgate installed.
  const dataFiles = given.length ? given : [defaultHistoryPath(repositoryRoot())];
  const site = await startSiteServer({ dataFiles, port });
  console.log(`perfgate site: ${site.pageUrl}`);
  console.log(dataFiles.every((file) => existsSync(file)) ? `data: ${dataFiles.join(', ')}` : `no data yet at ${dataFiles[0]}: run npm run bench`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => site.close().then(() => process.exit(0)));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runCommand(SITE_COMMAND, main);
