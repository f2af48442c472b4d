// nginx load-balancing over 3 node:http processes, each on a core of its own (servers/nginx/).
import { nginxUnavailable, startNginxUpstream } from '../nginx/upstreams.js';

export const unavailable = nginxUnavailable;
export const start = (ctx, address) => startNginxUpstream(3, ctx, address);
