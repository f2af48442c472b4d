// Koa 3 with @koa/router (study 2 used Koa with a router). Koa has no body parser of its own:
// bodies are read as node-http reads them. Static files go through koa-send (what koa-static
// runs), on a router route: koa-static mounted for all paths would stat a file on every request.
import Router from '@koa/router';
import Koa from 'koa';
import send from 'koa-send';
import { listenHandler, readBody } from '../contract/contract.js';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, STATIC_DIR, TEXT_TYPE, userAnswer } from '../contract/scenarios.js';

export const packages = ['koa', '@koa/router', 'koa-send'];

function answer(context, type, body, status = 200) {
  context.status = status;
  context.type = type;
  context.body = body;
}

export function start(ctx, { port, host }) {
  const app = new Koa();
  const router = new Router();
  app.use((context, next) => {
    ctx.onRequest(context.method, context.url);
    return next();
  });
  router.get('/hello', (context) => answer(context, TEXT_TYPE, HELLO_TEXT));
  router.get('/json', (context) => answer(context, JSON_TYPE, JSON_BODY));
  router.post('/echo', async (context) =>
    answer(context, JSON_TYPE, JSON.stringify(JSON.parse(await readBody(context.req)))),
  );
  router.post('/proxy', async (context) => {
    const forwarded = await ctx.forward(await readBody(context.req));
    answer(context, forwarded.type, forwarded.body, forwarded.status);
  });
  router.get('/io', async (context) => {
    await ctx.ioWait();
    answer(context, JSON_TYPE, JSON_BODY);
  });
  router.get('/cpu', (context) => {
    ctx.cpuWork();
    answer(context, JSON_TYPE, JSON_BODY);
  });
  router.get('/users/:id', (context) =>
    answer(context, JSON_TYPE, userAnswer(context.params.id, context.query.fields)),
  );
  router.get('/static/:file', (context) => send(context, context.params.file, { root: STATIC_DIR }));
  app.use(router.routes());
  return listenHandler(app.callback(), port, host);
}
