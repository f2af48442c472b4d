// koa with a node-postgres Pool: the Node side of the node-vs-java study (one aggregate query
// per request, and a pure wait). koa is imported when the server starts, so that this module's
// metadata loads where koa is not installed.
import pg from 'pg';
import { listenHandler } from '../contract/contract.js';
import { DB_QUERY, JSON_BODY, JSON_TYPE, TEXT_TYPE } from '../contract/scenarios.js';

export const packages = ['koa', 'pg'];
export const scenarios = ['db', 'io'];

export async function unavailable() {
  try {
    await import('koa');
    return null;
  } catch {
    return 'koa is not installed (npm package koa)';
  }
}

export async function start(ctx, { port, host }) {
  const { default: Koa } = await import('koa');
  const pool = new pg.Pool({
    connectionString: process.env.PERFGATE_DATABASE_URL,
    max: Number(process.env.PERFGATE_DB_POOL_SIZE ?? 10),
  });
  const routes = {
    'GET /db': async () => {
      if (!process.env.PERFGATE_DATABASE_URL)
        throw new Error('PERFGATE_DATABASE_URL is not set: the harness starts the database for the db scenario');
      const {
        rows: [row],
      } = await pool.query(DB_QUERY);
      return JSON.stringify({ items: row.items, total: row.total });
    },
    'GET /io': async () => {
      await ctx.ioWait();
      return JSON_BODY;
    },
  };
  const app = new Koa();
  app.use(async (context) => {
    ctx.onRequest(context.method, context.url);
    const route = routes[`${context.method} ${context.path}`];
    if (!route) {
      context.status = 404;
      context.type = TEXT_TYPE;
      context.body = 'Not Found';
      return;
    }
    context.body = await route();
    context.type = JSON_TYPE;
  });
  const server = await listenHandler(app.callback(), port, host);
  return {
    port: server.port,
    close: async () => {
      await server.close();
      await pool.end();
    },
  };
}
