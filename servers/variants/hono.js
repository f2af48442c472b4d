// Hono 4 on Node through @hono/node-server's request listener.
// Its serveStatic resolves `root` from the working directory, hence the relative path.
import { relative } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { listenHandler } from '../contract/contract.js';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, STATIC_DIR, TEXT_TYPE, userAnswer } from '../contract/scenarios.js';

export const packages = ['hono', '@hono/node-server'];

export function start(ctx, { port, host }) {
  const app = new Hono();
  const answer = (c, type, body, status = 200) => c.body(body, status, { 'content-type': type });
  app.use((c, next) => {
    ctx.onRequest(c.req.method, c.req.path);
    return next();
  });
  app.get('/hello', (c) => answer(c, TEXT_TYPE, HELLO_TEXT));
  app.get('/json', (c) => answer(c, JSON_TYPE, JSON_BODY));
  app.post('/echo', async (c) => answer(c, JSON_TYPE, JSON.stringify(await c.req.json())));
  app.post('/proxy', async (c) => {
    const forwarded = await ctx.forward(await c.req.text());
    return answer(c, forwarded.type, forwarded.body, forwarded.status);
  });
  app.get('/io', async (c) => {
    await ctx.ioWait();
    return answer(c, JSON_TYPE, JSON_BODY);
  });
  app.get('/cpu', (c) => {
    ctx.cpuWork();
    return answer(c, JSON_TYPE, JSON_BODY);
  });
  app.get('/users/:id', (c) => answer(c, JSON_TYPE, userAnswer(c.req.param('id'), c.req.query('fields'))));
  app.use(
    '/static/*',
    serveStatic({
      root: relative(process.cwd(), STATIC_DIR),
      rewriteRequestPath: (path) => path.slice('/static'.length),
    }),
  );
  return listenHandler(getRequestListener(app.fetch), port, host);
}
