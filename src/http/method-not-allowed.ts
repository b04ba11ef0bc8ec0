import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.ts';

/** '/v1/r/:rec_id' → a regex matching its concrete paths ('/v1/r/rec_abc'). */
const pathPattern = (url: string): RegExp =>
  new RegExp(
    `^${url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

/**
 * Fastify answers an unknown method on a known path with 404; the caller is better served
 * by 405 and an Allow header. onRoute records each route's methods for the not-found handler.
 */
export function registerNotFound(app: FastifyInstance): void {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const entry = routes.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) entry.methods.add(m);
    routes.set(route.url, entry);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    if (allowed.size > 0) {
      const list = [...allowed].sort().join(', ');
      reply.header('allow', list);
      return sendError(reply, {
        status: 405,
        message: `method ${request.method} is not allowed on ${path.slice(0, 200)}; use ${list}`,
      });
    }
    return sendError(reply, {
      status: 404,
      message: `no route ${request.method} ${path.slice(0, 200)}; the API is POST /v1/search, GET /v1/search and POST /v1/fetch (see /openapi.json)`,
    });
  });
}
