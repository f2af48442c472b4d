// The scenarios on node:http with no framework: a route table, the two routes with a
// parameter (a user id, a file name), and the listener that dispatches to them. The cpu work
// is awaited, so a variant may move it off the main thread (node-workers) by handing in a ctx
// whose cpuWork returns a promise.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { readBody } from '../contract/contract.js';
import {
  HELLO_TEXT,
  HTML_TYPE,
  JSON_BODY,
  JSON_TYPE,
  STATIC_DIR,
  TEXT_TYPE,
  userAnswer,
} from '../contract/scenarios.js';

// node:http has no static-file server: the idiomatic equivalent is stat, then stream the file.
const FILE_TYPES = { '.html': HTML_TYPE };

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

async function sendFile(response, name) {
  const type = FILE_TYPES[extname(name)];
  const file = join(STATIC_DIR, name);
  const found = type && !name.includes('/') && (await stat(file).catch(() => null));
  if (!found?.isFile()) return send(response, 404, TEXT_TYPE, 'Not Found');
  response.writeHead(200, { 'content-type': type, 'content-length': found.size });
  createReadStream(file).pipe(response);
}

function routes(ctx) {
  return {
    'GET /hello': async () => [TEXT_TYPE, HELLO_TEXT],
    'GET /json': async () => [JSON_TYPE, JSON_BODY],
    'POST /echo': async (request) => [JSON_TYPE, JSON.stringify(JSON.parse(await readBody(request)))],
    'POST /proxy': async (request) => {
      const answer = await ctx.forward(await readBody(request));
      return [answer.type, answer.body, answer.status];
    },
    'GET /io': async () => {
      await ctx.ioWait();
      return [JSON_TYPE, JSON_BODY];
    },
    'GET /cpu': async () => {
      await ctx.cpuWork();
      return [JSON_TYPE, JSON_BODY];
    },
  };
}

// GET /users/:id?fields=... and GET /static/:file, matched after the exact routes.
const USER = /^\/users\/([^/?]+)(?:\?(.*))?$/;
const STATIC = '/static/';

export function requestListener(ctx) {
  const table = routes(ctx);
  return async (request, response) => {
    ctx.onRequest(request.method, request.url);
    try {
      const route = table[`${request.method} ${request.url}`];
      if (route) {
        const [type, body, status = 200] = await route(request);
        return send(response, status, type, body);
      }
      const user = request.method === 'GET' && USER.exec(request.url);
      if (user)
        return send(
          response,
          200,
          JSON_TYPE,
          userAnswer(decodeURIComponent(user[1]), new URLSearchParams(user[2]).get('fields')),
        );
      if (request.method === 'GET' && request.url.startsWith(STATIC))
        return await sendFile(response, decodeURIComponent(request.url.slice(STATIC.length)));
      send(response, 404, TEXT_TYPE, 'Not Found');
    } catch (error) {
      send(response, 500, TEXT_TYPE, error.message);
    }
  };
}
