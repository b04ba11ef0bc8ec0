import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * onRequest hook of the admin routes: `Authorization: Bearer <SCOUT_ADMIN_TOKEN>`, compared
 * in constant time (both sides hashed first, so lengths never leak either). API keys and
 * x-api-key never authorise: they are simply not the admin token.
 */
export function adminTokenCheck(token: string) {
  const expected = digest(token);
  return async function checkAdminToken(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const m = header === undefined ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new DomainError('unauthorized', 'the admin API needs "Authorization: Bearer <SCOUT_ADMIN_TOKEN>"');
    if (!timingSafeEqual(digest(m[1] as string), expected)) {
      throw new DomainError('unauthorized', 'the admin token is not valid (API keys do not authorise the admin API)');
    }
  };
}
