// The only way out of a sandboxed install's network namespace (./install.js): an HTTP proxy the
// harness runs outside it, on a unix socket bound into the sandbox, that forwards to the npm
// registry's host and port and to nothing else (no cloud metadata address, no private range, no
// service on the runner's loopback). Plain requests (an http:// registry) and CONNECT tunnels
// (https://) alike; a refused destination is answered 403 and written to the log, one a line,
// for the install's error. Where the harness itself reaches the registry through an HTTP proxy
// (PERFGATE_UPSTREAM_HTTP / PERFGATE_UPSTREAM_HTTPS, less the hosts of PERFGATE_NO_PROXY), it
// goes through that one. Run as `node registry-proxy.js <socket> <log> <host:port>...`; Node's
// built-ins only.
import { appendFileSync, chmodSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

const [socketPath, logFile, ...allowedList] = process.argv.slice(2);
const allowed = new Set(allowedList.map((destination) => destination.toLowerCase()));

// "host:port" of a request's destination, with a bracketed IPv6 address as in the URL.
const destinationOf = (hostname, port) => `${hostname}:${port}`.toLowerCase();

// The harness's own proxy for a destination's host, for plain requests or for tunnels, or null.
const noProxy = (process.env.PERFGATE_NO_PROXY ?? '')
  .split(',')
  .map((entry) =>
    entry
      .trim()
      .toLowerCase()
      .replace(/^\*?\./, ''),
  )
  .filter(Boolean);
function upstreamFor(hostname, kind) {
  const url = process.env[kind === 'tunnel' ? 'PERFGATE_UPSTREAM_HTTPS' : 'PERFGATE_UPSTREAM_HTTP'];
  const host = hostname.toLowerCase();
  if (!url || noProxy.some((entry) => entry === '*' || host === entry || host.endsWith(`.${entry}`))) return null;
  const upstream = new URL(url);
  const credentials = upstream.username
    ? {
        'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`).toString('base64')}`,
      }
    : {};
  return { host: upstream.hostname.replace(/^\[|\]$/g, ''), port: Number(upstream.port || 80), credentials };
}

// A connection to host:port, through the harness's proxy when it has one (a CONNECT there).
function tunnelTo(host, port, onOpen, onFail) {
  const upstream = upstreamFor(host, 'tunnel');
  if (!upstream) {
    const socket = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => onOpen(socket, Buffer.alloc(0)));
    socket.on('error', onFail);
    return;
  }
  const ask = request({
    host: upstream.host,
    port: upstream.port,
    method: 'CONNECT',
    path: `${host}:${port}`,
    headers: upstream.credentials,
  });
  ask.on('connect', (answer, socket, rest) => {
    if (answer.statusCode === 200) onOpen(socket, rest);
    else {
      socket.destroy();
      onFail();
    }
  });
  ask.on('error', onFail);
  ask.end();
}

function refused(destination) {
  appendFileSync(logFile, `${destination}\n`);
  return `perfgate's sandboxed install reaches only the npm registry (${allowedList.join(', ')}), not ${destination}\n`;
}

const server = createServer((incoming, answer) => {
  let url;
  try {
    url = new URL(incoming.url);
  } catch {
    answer.writeHead(400).end('perfgate: a proxy request names its destination in full\n');
    return;
  }
  const destination = destinationOf(url.hostname, url.port || 80);
  if (url.protocol !== 'http:' || !allowed.has(destination)) {
    answer.writeHead(403).end(refused(destination));
    return;
  }
  const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !/^proxy-/i.test(name)));
  const upstream = upstreamFor(url.hostname, 'plain');
  const onward = request(
    upstream
      ? {
          host: upstream.host,
          port: upstream.port,
          method: incoming.method,
          path: url.href,
          headers: { ...headers, ...upstream.credentials },
        }
      : {
          host: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || 80,
          method: incoming.method,
          path: url.pathname + url.search,
          headers,
        },
    (reply) => {
      answer.writeHead(reply.statusCode, reply.headers);
      reply.pipe(answer);
    },
  );
  onward.on('error', () => answer.destroy());
  incoming.pipe(onward);
});

server.on('connect', (incoming, client, head) => {
  const at = incoming.url.lastIndexOf(':');
  const [host, port] = [incoming.url.slice(0, at), incoming.url.slice(at + 1)];
  client.on('error', () => {});
  if (at <= 0 || !allowed.has(destinationOf(host, port))) {
    client.end(`HTTP/1.1 403 Forbidden\r\n\r\n${refused(incoming.url)}`);
    return;
  }
  tunnelTo(
    host,
    port,
    (onward, rest) => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length) client.write(rest);
      onward.write(head);
      onward.pipe(client);
      client.pipe(onward);
      onward.on('error', () => client.destroy());
      client.on('close', () => onward.destroy());
    },
    () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
  );
});

// The sandbox's uid (as root, not the harness's) connects to it.
server.listen(socketPath, () => chmodSync(socketPath, 0o666));
process.on('SIGTERM', () => process.exit(0));
