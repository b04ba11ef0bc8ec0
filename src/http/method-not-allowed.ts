import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.ts';

/**
 * Fastify answers an unknown method on a known path with 404; the caller is better served
 * by 405 and an Allow header. onRoute records each path's methods for the not-found handler.
 */
export function registerNotFound(app: FastifyInstance): void {
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) set.add(m);
    methods.set(route.url, set);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = methods.get(path);
    if (allowed) {
      const list = [...allowed].sort().join(', ');
      reply.header('allow', list);
      return sendError(reply, { status: 405, message: `method ${request.method} is not allowed on ${path}; use ${list}` });
    }
    return sendError(reply, {
      status: 404,
      message: `no route ${request.method} ${path.slice(0, 200)}; the API is POST /v1/search, GET /v1/search and POST /v1/fetch (see /openapi.json)`,
    });
  });
}
