// The mock AI backend of the proxy-baseline study: Express, answers a POSTed JSON prompt
// with a fixed completion after an optional delay. It serves the `proxy` route itself,
// so measuring it directly and measuring a proxy in front of it verify the same answer.
import express from 'express';
import { listenHandler } from '../contract/contract.js';
import { COMPLETION_BODY, JSON_TYPE } from '../contract/scenarios.js';

export const packages = ['express'];
export const scenarios = ['proxy'];
// Answers the proxy route itself: it is the backend other variants forward to.
export const role = 'backend';

export function start(ctx, { port, host }) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((request, _response, next) => {
    ctx.onRequest(request.method, request.url);
    next();
  });
  app.post('/proxy', express.json({ limit: '10mb' }), async (_request, response) => {
    await ctx.backendWait();
    response.type(JSON_TYPE).send(COMPLETION_BODY);
  });
  return listenHandler(app, port, host);
}
