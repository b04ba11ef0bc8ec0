import type { FastifyInstance } from 'fastify';

/** GET /healthz: 200 when the stores answer, 503 otherwise. No key, not in the OpenAPI document. */
export function healthRoutes(app: FastifyInstance, check: () => Promise<void>): void {
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await check();
      return { status: 'ok' };
    } catch (e) {
      request.log.error({ err: e }, 'health check failed');
      return reply
        .code(503)
        .send({ error: { status: 503, message: 'backend unavailable: the store does not answer' } });
    }
  });
}
