// Raw uWebSockets.js with no framework: the ceiling of the frameworks table. The npm mirror
// that provides it is named in package.json's overrides (README, "Variants").
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { extname, join } from 'node:path';
import { uwsUnavailable } from '../probes/uws-binary.js';
import {
  HELLO_TEXT,
  HTML_TYPE,
  JSON_BODY,
  JSON_TYPE,
  STATIC_DIR,
  TEXT_TYPE,
  userAnswer,
} from '../contract/scenarios.js';

export const packages = ['uWebSockets.js'];
export const unavailable = uwsUnavailable;

// uWS hands the body over in chunks whose memory it reuses after each call: copy them.
function readBody(res) {
  return new Promise((resolve) => {
    const chunks = [];
    res.onData((chunk, isLast) => {
      chunks.push(Buffer.copyBytesFrom(new Uint8Array(chunk)));
      if (isLast) resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function send(res, [type, body, status = 200]) {
  if (res.aborted) return; // the client went away while the answer was computed
  res.cork(() => res.writeStatus(`${status} ${STATUS_CODES[status]}`).writeHeader('content-type', type).end(body));
}

// A route answers [type, body, status?] at once, or a promise of it; a response answered
// later must be watched for abortion (uWS's rule), and its request read before returning.
function route(ctx, method, handler) {
  return (res, req) => {
    ctx.onRequest(method, req.getUrl());
    const answer = handler(res, req); // req is valid only until this returns
    if (!(answer instanceof Promise)) return send(res, answer);
    res.onAborted(() => {
      res.aborted = true;
    });
    answer.then(
      (ready) => send(res, ready),
      (error) => send(res, [TEXT_TYPE, error.message, 500]),
    );
  };
}

// uWS has no static-file server; its idiom (and hyper-express's Response.file on top of it)
// is to keep small files in memory: each is read once, on its first request.
const FILE_TYPES = { '.html': HTML_TYPE };
const files = new Map();

function staticFile(name) {
  const type = FILE_TYPES[extname(name)];
  if (!type || name.includes('/')) return [TEXT_TYPE, 'Not Found', 404];
  if (!files.has(name))
    files.set(
      name,
      readFile(join(STATIC_DIR, name)).then(
        (body) => [type, body],
        () => [TEXT_TYPE, 'Not Found', 404],
      ),
    );
  return files.get(name);
}

export async function start(ctx, { port, host }) {
  const { default: uWS } = await import('uWebSockets.js'); // loads the addon: see uws-binary.js
  const app = uWS
    .App()
    .get(
      '/hello',
      route(ctx, 'GET', () => [TEXT_TYPE, HELLO_TEXT]),
    )
    .get(
      '/json',
      route(ctx, 'GET', () => [JSON_TYPE, JSON_BODY]),
    )
    .post(
      '/echo',
      route(ctx, 'POST', async (res) => [JSON_TYPE, JSON.stringify(JSON.parse(await readBody(res)))]),
    )
    .post(
      '/proxy',
      route(ctx, 'POST', async (res) => {
        const forwarded = await ctx.forward(await readBody(res));
        return [forwarded.type, forwarded.body, forwarded.status];
      }),
    )
    .get(
      '/io',
      route(ctx, 'GET', async () => {
        await ctx.ioWait();
        return [JSON_TYPE, JSON_BODY];
      }),
    )
    .get(
      '/cpu',
      route(ctx, 'GET', () => {
        ctx.cpuWork();
        return [JSON_TYPE, JSON_BODY];
      }),
    )
    .get(
      '/users/:id',
      route(ctx, 'GET', (_res, req) => [JSON_TYPE, userAnswer(req.getParameter(0), req.getQuery('fields'))]),
    )
    .get(
      '/static/:file',
      route(ctx, 'GET', (_res, req) => staticFile(req.getParameter(0))),
    )
    .any(
      '/*',
      route(ctx, 'ANY', () => [TEXT_TYPE, 'Not Found', 404]),
    );
  return new Promise((resolve, reject) => {
    app.listen(host, port, (token) => {
      if (!token) return reject(Object.assign(new Error(`listen EADDRINUSE ${host}:${port}`), { code: 'EADDRINUSE' }));
      resolve({ port: uWS.us_socket_local_port(token), close: async () => app.close() });
    });
  });
}
