// A fake of GitHub's REST API on loopback for the workflow scripts' tests: each route is
// [method, path pattern, handler(match, body, url) -> [status, json]]; every request is kept.
import { once } from 'node:events';
import { createServer } from 'node:http';

export async function startFakeGitHub(routes) {
  const requests = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const url = new URL(request.url, 'http://127.0.0.1');
    const body = text ? JSON.parse(text) : null;
    requests.push({ method: request.method, path: url.pathname, body, auth: request.headers.authorization });
    for (const [method, pattern, handle] of routes) {
      const match = request.method === method && pattern.exec(url.pathname);
      if (!match) continue;
      const [status, json] = await handle(match, body, url);
      return response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(json === undefined ? '' : JSON.stringify(json));
    }
    return response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'Not Found' }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
