// A stand-in for your own application: any program in any language works the same way,
// as long as it listens on $PORT on 127.0.0.1. See own-server.json and the README.
import http from 'node:http';

http
  .createServer((request, response) => {
    if (request.url === '/health') return response.end('ok');
    if (request.url === '/api/users/42') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ id: 42, name: 'Ada' }));
    }
    response.writeHead(404).end();
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
