// hyper-express 6 on uWebSockets.js (the npm mirror in package.json's overrides). Pinned to
// 6.18.0: 7.x needs Node >= 22 and uWS APIs the mirror's build lacks (getRemotePort).
import { uwsUnavailable } from '../probes/uws-binary.js';
import { join } from 'node:path';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, STATIC_DIR, TEXT_TYPE, userAnswer } from '../contract/scenarios.js';

export const packages = ['hyper-express', 'uWebSockets.js'];
export const unavailable = uwsUnavailable;

function answer(response, type, body, status = 200) {
  response.status(status).type(type).send(body);
}

export async function start(ctx, { port, host }) {
  const { default: HyperExpress } = await import('hyper-express'); // loads the addon: see uws-binary.js
  const server = new HyperExpress.Server({ max_body_length: 10 * 1024 * 1024 });
  server.use((request, _response, next) => {
    ctx.onRequest(request.method, request.url);
    next();
  });
  server.get('/hello', (_request, response) => answer(response, TEXT_TYPE, HELLO_TEXT));
  server.get('/json', (_request, response) => answer(response, JSON_TYPE, JSON_BODY));
  server.post('/echo', async (request, response) => answer(response, JSON_TYPE, JSON.stringify(await request.json())));
  server.post('/proxy', async (request, response) => {
    const forwarded = await ctx.forward(await request.text());
    answer(response, forwarded.type, forwarded.body, forwarded.status);
  });
  server.get('/io', async (_request, response) => {
    await ctx.ioWait();
    answer(response, JSON_TYPE, JSON_BODY);
  });
  server.get('/cpu', (_request, response) => {
    ctx.cpuWork();
    answer(response, JSON_TYPE, JSON_BODY);
  });
  server.get('/users/:id', (request, response) =>
    answer(response, JSON_TYPE, userAnswer(request.path_parameters.id, request.query_parameters.fields)),
  );
  // hyper-express has no static middleware: Response.file() is its way, with the file cached in memory.
  server.get('/static/:file', (request, response) => response.file(join(STATIC_DIR, request.path_parameters.file)));
  await server.listen(port, host);
  return { port: server.port, close: async () => server.close() };
}
