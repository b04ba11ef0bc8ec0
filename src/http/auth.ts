import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../keys/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import { peekRequest, rateLimitHeaders, rateLimitRefusal, takeRequest } from '../keys/rate-limit.ts';
import type { RateLimiter, RateLimitState } from '../store/ports.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that need an API key (and are rate limited) say `config: { auth: true }`. */
    auth?: boolean;
    /**
     * 'per-tool-call': authenticated here, rate limited by each tool call it carries (/mcp).
     * 'peek': the bucket is read, not taken from, and never refuses (GET /v1/usage reports it).
     */
    rateLimit?: 'per-request' | 'per-tool-call' | 'peek';
    /** The route is under a path key (`/k/:key/…`, SCOUT_PATH_KEYS): the key is also read from there. */
    pathKey?: boolean;
    /** Added to the missing-key message: how else this route's clients can send a key. */
    missingKeyHint?: string;
  }
  interface FastifyRequest {
    apiKeyId?: string;
    /** The bucket as read by a 'peek' route, so its body and RateLimit-* headers agree. */
    rateLimitState?: RateLimitState;
  }
}

const MISSING =
  'missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>" (keys in the query string are not accepted)';

/**
 * Reads the key from either header form (SPEC 5), or from the path on a path-key route
 * (`/k/<key>/…`); never from the query string. A path key and a header key that differ are
 * refused as two header keys are: which one the caller meant is not Scout's guess.
 */
export function presentedKey(request: FastifyRequest): string {
  const config = request.routeOptions.config;
  const fromHeaders = headerKey(request);
  const fromPath = config?.pathKey === true ? (request.params as { key?: string }).key : undefined;
  if (fromPath !== undefined && fromHeaders !== undefined && fromPath !== fromHeaders) {
    throw new DomainError('unauthorized', 'the key in the path and the key in the header differ; send one key');
  }
  const key = fromPath ?? fromHeaders;
  if (key === undefined || key === '') throw new DomainError('unauthorized', MISSING + (config?.missingKeyHint ?? ''));
  return key;
}

/** The key of the Authorization or x-api-key header, when one is sent. */
function headerKey(request: FastifyRequest): string | undefined {
  // Node keeps only the first of repeated Authorization headers and joins repeated
  // x-api-key ones: count them in the raw headers so neither case passes silently.
  let sent = 0;
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (/^(authorization|x-api-key)$/i.test(raw[i] as string)) sent++;
  const { authorization, 'x-api-key': xApiKey } = request.headers;
  if (sent > 2 || (sent === 2 && (authorization === undefined || xApiKey === undefined))) {
    throw new DomainError('unauthorized', 'send the API key once: one Authorization or one x-api-key header');
  }
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new DomainError('unauthorized', 'Authorization header must be "Bearer <key>"');
    bearer = m[1];
  }
  if (Array.isArray(xApiKey)) throw new DomainError('unauthorized', 'send the x-api-key header once');
  const fromHeader = xApiKey?.trim();
  if (bearer !== undefined && fromHeader !== undefined && bearer !== fromHeader) {
    throw new DomainError('unauthorized', 'Authorization and x-api-key carry different keys; send one key');
  }
  // An empty x-api-key is no key (a client whose optional key field was left blank).
  const key = bearer ?? fromHeader;
  return key === '' ? undefined : key;
}

/**
 * Authenticates, then rate limits, every route marked `config.auth`. Runs in onRequest, so
 * a refused caller costs no body parsing; RateLimit-* headers go on every authenticated
 * response, errors included.
 */
export function registerAuth(app: FastifyInstance, keys: ApiKeys, limiter: RateLimiter): void {
  app.decorateRequest('apiKeyId', undefined);
  app.decorateRequest('rateLimitState', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.auth !== true) return;
    const record = await keys.authenticate(presentedKey(request));
    request.apiKeyId = record.id;
    // The fetch capacity shares its slots fairly between callers: the key is the caller.
    request.ctx.caller = record.id;
    // /mcp takes from the bucket per tools/call instead (src/mcp), so a refusal is a tool result.
    if (request.routeOptions.config?.rateLimit === 'per-tool-call') return;
    if (request.routeOptions.config?.rateLimit === 'peek') {
      request.rateLimitState = await peekRequest(limiter, record.id);
      reply.headers(rateLimitHeaders({ ...request.rateLimitState, allowed: true }));
      return;
    }
    const d = await takeRequest(limiter, record.id);
    reply.headers(rateLimitHeaders(d));
    const refused = rateLimitRefusal(d);
    if (refused) throw refused;
  });
}
