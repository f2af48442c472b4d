// Fastify 5.
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { HELLO_TEXT, JSON_BODY, JSON_TYPE, STATIC_DIR, TEXT_TYPE, userAnswer } from '../contract/scenarios.js';

export const packages = ['fastify', '@fastify/static'];

export async function start(ctx, { port, host }) {
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.addHook('onRequest', async (request) => ctx.onRequest(request.method, request.url));
  app.get('/hello', async (_request, reply) => reply.type(TEXT_TYPE).send(HELLO_TEXT));
  app.get('/json', async (_request, reply) => reply.type(JSON_TYPE).send(JSON_BODY));
  app.post('/echo', async (request, reply) => reply.type(JSON_TYPE).send(JSON.stringify(request.body)));
  app.post('/proxy', async (request, reply) => {
    const answer = await ctx.forward(JSON.stringify(request.body));
    return reply.code(answer.status).type(answer.type).send(answer.body);
  });
  app.get('/io', async (_request, reply) => {
    await ctx.ioWait();
    return reply.type(JSON_TYPE).send(JSON_BODY);
  });
  app.get('/cpu', async (_request, reply) => {
    ctx.cpuWork();
    return reply.type(JSON_TYPE).send(JSON_BODY);
  });
  app.get('/users/:id', async (request, reply) =>
    reply.type(JSON_TYPE).send(userAnswer(request.params.id, request.query.fields)),
  );
  await app.register(fastifyStatic, { root: STATIC_DIR, prefix: '/static/' });
  await app.listen({ port, host });
  return { port: app.server.address().port, close: () => app.close() };
}
