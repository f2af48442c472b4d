// Raw uWebSockets.js with no framework: the ceiling of the frameworks table. The npm mirror
// that provides it is named in package.json's overrides (README, "Variants").
import { STATUS_CODES } from 'node:http';
import { uwsUnavailable } from '../uws-binary.js';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, TEXT_TYPE } from '../scenarios.js';

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
    const answer = handler(res);
    if (!(answer instanceof Promise)) return send(res, answer);
    res.onAborted(() => { res.aborted = true; });
    answer.then((ready) => send(res, ready), (error) => send(res, [TEXT_TYPE, error.message, 500]));
  };
}

export async function start(ctx, { port, host }) {
  const { default: uWS } = await import('uWebSockets.js'); // loads the addon: see uws-binary.js
  const app = uWS.App()
    .get('/hello', route(ctx, 'GET', () => [TEXT_TYPE, HELLO_TEXT]))
    .get('/json', route(ctx, 'GET', () => [JSON_TYPE, JSON_BODY]))
    .post('/echo', route(ctx, 'POST', async (res) => [JSON_TYPE, JSON.stringify(JSON.parse(await readBody(res)))]))
    .post('/proxy', route(ctx, 'POST', async (res) => {
      const forwarded = await ctx.forward(await readBody(res));
      return [forwarded.type, forwarded.body, forwarded.status];
    }))
    .get('/io', route(ctx, 'GET', async () => { await ctx.ioWait(); return [JSON_TYPE, JSON_BODY]; }))
    .get('/cpu', route(ctx, 'GET', () => { ctx.cpuWork(); return [JSON_TYPE, JSON_BODY]; }))
    .any('/*', route(ctx, 'ANY', () => [TEXT_TYPE, 'Not Found', 404]));
  return new Promise((resolve, reject) => {
    app.listen(host, port, (token) => {
      if (!token) return reject(Object.assign(new Error(`listen EADDRINUSE ${host}:${port}`), { code: 'EADDRINUSE' }));
      resolve({ port: uWS.us_socket_local_port(token), close: async () => app.close() });
    });
  });
}
