// The proxy scenario's outgoing request to the mock backend, with the client the
// proxyClient option names (servers/contract/options.js). Each client keeps its connections to the
// backend alive and unbounded in number, as a proxy in production would:
//   http    node:http's request over a keep-alive http.Agent (the study's Express proxy);
//   undici  undici's request over a Pool for the backend's origin;
//   fetch   the global fetch (undici's fetch, bundled with Node).
// Each returns a function body -> { status, type, body } with the backend's answer unchanged.
import http from 'node:http';
import { Pool } from 'undici';

const HEADERS = { 'content-type': 'application/json' };

function viaHttp(url) {
  const agent = new http.Agent({ keepAlive: true });
  return (body) =>
    new Promise((resolve, reject) => {
      const outgoing = http.request(
        url,
        { method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } },
        (answer) => {
          const chunks = [];
          answer.on('data', (chunk) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () =>
            resolve({
              status: answer.statusCode,
              type: answer.headers['content-type'],
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}

function viaUndici(url) {
  const { origin, pathname, search } = new URL(url);
  const pool = new Pool(origin);
  return async (body) => {
    const answer = await pool.request({ method: 'POST', path: pathname + search, headers: HEADERS, body });
    return { status: answer.statusCode, type: answer.headers['content-type'], body: await answer.body.text() };
  };
}

function viaFetch(url) {
  return async (body) => {
    const answer = await fetch(url, { method: 'POST', headers: HEADERS, body });
    return { status: answer.status, type: answer.headers.get('content-type'), body: await answer.text() };
  };
}

const CLIENTS = { http: viaHttp, undici: viaUndici, fetch: viaFetch };

export function createForwarder(client, url) {
  if (!CLIENTS[client])
    throw new Error(`proxy client "${client}" is not known (allowed: ${Object.keys(CLIENTS).join(', ')})`);
  return CLIENTS[client](url);
}
