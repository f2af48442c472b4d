// The scenarios on Express's API, for every variant that offers that API under another
// engine or version (Express 4, ultimate-express): the same app, only `express` differs.
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, STATIC_DIR, TEXT_TYPE, userAnswer } from '../contract/scenarios.js';

export function expressApp(express, ctx) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // every variant answers the same headers' worth of work
  app.use((request, _response, next) => {
    ctx.onRequest(request.method, request.url);
    next();
  });
  app.get('/hello', (_request, response) => response.type(TEXT_TYPE).send(HELLO_TEXT));
  app.get('/json', (_request, response) => response.type(JSON_TYPE).send(JSON_BODY));
  app.post('/echo', express.json({ limit: '10mb' }), (request, response) => response.json(request.body));
  app.post('/proxy', express.text({ type: '*/*', limit: '10mb' }), async (request, response) => {
    const answer = await ctx.forward(request.body);
    response.status(answer.status).type(answer.type).send(answer.body);
  });
  app.get('/io', async (_request, response) => {
    await ctx.ioWait();
    response.type(JSON_TYPE).send(JSON_BODY);
  });
  app.get('/cpu', (_request, response) => {
    ctx.cpuWork();
    response.type(JSON_TYPE).send(JSON_BODY);
  });
  app.get('/users/:id', (request, response) =>
    response.type(JSON_TYPE).send(userAnswer(request.params.id, request.query.fields)),
  );
  app.use('/static', express.static(STATIC_DIR));
  return app;
}
