// The scenarios on node:http with no framework: a route table and the listener that
// dispatches to it. The cpu work is awaited, so a variant may move it off the main thread
// (node-workers) by handing in a ctx whose cpuWork returns a promise.
import { readBody } from './contract.js';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, TEXT_TYPE } from './scenarios.js';

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
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
    'GET /io': async () => { await ctx.ioWait(); return [JSON_TYPE, JSON_BODY]; },
    'GET /cpu': async () => { await ctx.cpuWork(); return [JSON_TYPE, JSON_BODY]; },
  };
}

export function requestListener(ctx) {
  const table = routes(ctx);
  return async (request, response) => {
    ctx.onRequest(request.method, request.url);
    const route = table[`${request.method} ${request.url}`];
    if (!route) return send(response, 404, TEXT_TYPE, 'Not Found');
    try {
      const [type, body, status = 200] = await route(request);
      send(response, status, type, body);
    } catch (error) {
      send(response, 500, TEXT_TYPE, error.message);
    }
  };
}
