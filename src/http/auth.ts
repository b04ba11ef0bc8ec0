import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../domain/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import type { RateLimiter } from '../store/ports.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that need an API key (and are rate limited) say `config: { auth: true }`. */
    auth?: boolean;
  }
  interface FastifyRequest {
    apiKeyId?: string;
  }
}

const MISSING =
  'missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>" (keys in the query string are not accepted)';

/** Reads the key from either header form (SPEC 5); never from the query string. */
export function presentedKey(request: FastifyRequest): string {
  // Node keeps only the first of repeated Authorization headers and joins repeated
  // x-api-key ones: count them in the raw headers so neither case passes silently.
  let sent = 0;
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (/^(authorization|x-api-key)$/i.test(raw[i] as string)) sent++;
  const { authorization, 'x-api-key': headerKey } = request.headers;
  if (sent > 2 || (sent === 2 && (authorization === undefined || headerKey === undefined))) {
    throw new DomainError('unauthorized', 'send the API key once: one Authorization or one x-api-key header');
  }
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new DomainError('unauthorized', 'Authorization header must be "Bearer <key>"');
    bearer = m[1];
  }
  if (Array.isArray(headerKey)) throw new DomainError('unauthorized', 'send the x-api-key header once');
  const fromHeader = headerKey?.trim();
  if (bearer !== undefined && fromHeader !== undefined && bearer !== fromHeader) {
    throw new DomainError('unauthorized', 'Authorization and x-api-key carry different keys; send one key');
  }
  const key = bearer ?? fromHeader;
  if (key === undefined || key === '') throw new DomainError('unauthorized', MISSING);
  return key;
}

/**
 * Authenticates, then rate limits, every route marked `config.auth`. Runs in onRequest, so
 * a refused caller costs no body parsing; RateLimit-* headers go on every authenticated
 * response, errors included.
 */
export function registerAuth(app: FastifyInstance, keys: ApiKeys, limiter: RateLimiter): void {
  app.decorateRequest('apiKeyId', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.auth !== true) return;
    const record = await keys.authenticate(presentedKey(request));
    request.apiKeyId = record.id;
    let d: Awaited<ReturnType<RateLimiter['consume']>>;
    try {
      d = await limiter.consume(record.id, 1);
    } catch (e) {
      throw new DomainError('unavailable', 'the rate-limit store is unavailable; retry shortly', { cause: e, retryAfterS: 5 });
    }
    reply.header('ratelimit-limit', String(d.limit));
    reply.header('ratelimit-remaining', String(d.remaining));
    reply.header('ratelimit-reset', String(Math.ceil(d.resetMs / 1000)));
    if (!d.allowed) {
      const retry = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
      throw new DomainError('rate_limited', `rate limit of ${d.limit} requests per minute exceeded; retry in ${retry} s`, {
        retryAfterS: retry,
      });
    }
  });
}
