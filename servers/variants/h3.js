// h3 2 on Node through its toNodeHandler (srvx).
import { H3, toNodeHandler } from 'h3';
import { listenHandler } from '../contract.js';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, TEXT_TYPE } from '../scenarios.js';

export const packages = ['h3'];

function answer(event, type, body, status = 200) {
  event.res.status = status;
  event.res.headers.set('content-type', type);
  return body;
}

export function start(ctx, { port, host }) {
  const app = new H3();
  app.use((event) => { ctx.onRequest(event.req.method, event.url.pathname); });
  app.get('/hello', (event) => answer(event, TEXT_TYPE, HELLO_TEXT));
  app.get('/json', (event) => answer(event, JSON_TYPE, JSON_BODY));
  app.post('/echo', async (event) => answer(event, JSON_TYPE, JSON.stringify(await event.req.json())));
  app.post('/proxy', async (event) => {
    const forwarded = await ctx.forward(await event.req.text());
    return answer(event, forwarded.type, forwarded.body, forwarded.status);
  });
  app.get('/io', async (event) => { await ctx.ioWait(); return answer(event, JSON_TYPE, JSON_BODY); });
  app.get('/cpu', (event) => { ctx.cpuWork(); return answer(event, JSON_TYPE, JSON_BODY); });
  return listenHandler(toNodeHandler(app), port, host);
}
