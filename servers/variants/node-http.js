// node:http with no framework: the baseline every framework is compared with.
import { listenHandler } from '../contract.js';
import { requestListener } from '../http-routes.js';

export function start(ctx, { port, host }) {
  return listenHandler(requestListener(ctx), port, host);
}
