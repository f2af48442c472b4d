// node:http with no framework: the baseline every framework is compared with.
import { listenHandler } from '../contract/contract.js';
import { requestListener } from '../routes/http-routes.js';

export function start(ctx, { port, host }) {
  return listenHandler(requestListener(ctx), port, host);
}
