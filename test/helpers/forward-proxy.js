// A stand-in for a runner's own HTTP proxy (the one its npm reaches the registry through), run as
// a process of its own: plain requests in absolute form and CONNECT tunnels, forwarded to
// anywhere; each one is written to the log file given, one line each. Prints its port when ready.
import { appendFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

const [logFile] = process.argv.slice(2);

const server = createServer((incoming, answer) => {
  appendFileSync(logFile, `${incoming.method} ${incoming.url}\n`);
  const url = new URL(incoming.url);
  const onward = request(
    {
      host: url.hostname,
      port: url.port || 80,
      method: incoming.method,
      path: url.pathname + url.search,
      headers: incoming.headers,
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
  appendFileSync(logFile, `CONNECT ${incoming.url}\n`);
  const at = incoming.url.lastIndexOf(':');
  const onward = connect(Number(incoming.url.slice(at + 1)), incoming.url.slice(0, at), () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    onward.write(head);
    onward.pipe(client);
    client.pipe(onward);
  });
  onward.on('error', () => client.destroy());
  client.on('error', () => onward.destroy());
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
