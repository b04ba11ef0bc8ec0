import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.ts';

/**
 * Refuses, on every route, a request with more than one Authorization header. Node keeps
 * only the first of them in request.headers, so a check that reads that field (the admin
 * token's) would silently judge the first and ignore the rest; the raw headers show them all.
 * 401 like every other malformed credential; before any route-level hook.
 */
export function registerSingleAuthorization(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw.rawHeaders;
    let sent = 0;
    for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === 'authorization') sent++;
    if (sent > 1) throw new DomainError('unauthorized', `send one Authorization header; this request has ${sent}`);
  });
}
