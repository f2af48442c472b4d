// h3 2 on Node through its toNodeHandler (srvx).
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { getQuery, getRouterParam, H3, serveStatic, toNodeHandler } from 'h3';
import { listenHandler } from '../contract/contract.js';
import {
  HELLO_TEXT,
  HTML_TYPE,
  JSON_BODY,
  JSON_TYPE,
  STATIC_DIR,
  TEXT_TYPE,
  userAnswer,
} from '../contract/scenarios.js';

// h3's serveStatic leaves reading the file and naming its type to the app (it runs anywhere,
// not only on a file system): the page's type is the one of the .html files served here.
const staticFiles = {
  getContents: (id) => readFile(join(STATIC_DIR, id.slice('/static/'.length))),
  getMeta: async (id) => {
    const found = await stat(join(STATIC_DIR, id.slice('/static/'.length))).catch(() => null);
    return found?.isFile() ? { size: found.size, mtime: found.mtime, type: HTML_TYPE } : undefined;
  },
};

export const packages = ['h3'];

function answer(event, type, body, status = 200) {
  event.res.status = status;
  event.res.headers.set('content-type', type);
  return body;
}

export function start(ctx, { port, host }) {
  const app = new H3();
  app.use((event) => {
    ctx.onRequest(event.req.method, event.url.pathname);
  });
  app.get('/hello', (event) => answer(event, TEXT_TYPE, HELLO_TEXT));
  app.get('/json', (event) => answer(event, JSON_TYPE, JSON_BODY));
  app.post('/echo', async (event) => answer(event, JSON_TYPE, JSON.stringify(await event.req.json())));
  app.post('/proxy', async (event) => {
    const forwarded = await ctx.forward(await event.req.text());
    return answer(event, forwarded.type, forwarded.body, forwarded.status);
  });
  app.get('/io', async (event) => {
    await ctx.ioWait();
    return answer(event, JSON_TYPE, JSON_BODY);
  });
  app.get('/cpu', (event) => {
    ctx.cpuWork();
    return answer(event, JSON_TYPE, JSON_BODY);
  });
  app.get('/users/:id', (event) =>
    answer(event, JSON_TYPE, userAnswer(getRouterParam(event, 'id'), getQuery(event).fields)),
  );
  app.get('/static/**', (event) => serveStatic(event, staticFiles));
  return listenHandler(toNodeHandler(app), port, host);
}
