import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../keys/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import { peekRequest, rateLimitHeaders, rateLimitRefusal, takeRequest } from '../keys/rate-limit.ts';
import type { RateLimiter, RateLimitState } from '../store/ports.ts';
import type { AnonymousTier } from './anonymous-tier.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that need an API key (and are rate limited) say `config: { auth: true }`. */
    auth?: boolean;
    /**
     * 'per-tool-call': authenticated here, rate limited by each tool call it carries (/mcp).
     * 'peek': the bucket is read, not taken from, and never refuses (GET /v1/usage reports it).
     * 'per-page': a caller with an empty bucket is refused here, before its body is read; the
     * route takes its cost (one per page) with request.takeRequests once the body is valid.
     */
    rateLimit?: 'per-request' | 'per-tool-call' | 'peek' | 'per-page';
    /** The route is under a path key (`/k/:key/…`, SCOUT_PATH_KEYS): the key is also read from there. */
    pathKey?: boolean;
    /** Added to the missing-key message: how else this route's clients can send a key. */
    missingKeyHint?: string;
    /**
     * A JSON body may carry the key as `api_key` (the Tavily shape: older clients send it
     * there). Without a header or path key, authentication waits for the parsed body.
     */
    bodyKey?: boolean;
  }
  interface FastifyRequest {
    apiKeyId?: string;
    /** Admitted by the anonymous tier: the request carried no key (its caller is `anon:<address group>`). */
    anonymous: boolean;
    /** The bucket as read by a 'peek' route, so its body and RateLimit-* headers agree. */
    rateLimitState?: RateLimitState;
    /** Authentication waits for the body's api_key (config.bodyKey, no header or path key). */
    keyInBody?: boolean;
    /**
     * A 'per-page' route's charge: takes `cost` requests from the caller's bucket at once, all
     * or none, setting the RateLimit-* headers; throws the refusal (429, or 400 when `cost` is
     * more than the whole limit).
     */
    takeRequests?: (cost: number) => Promise<void>;
  }
}

const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** The request says a body follows: a non-zero Content-Length or a Transfer-Encoding. */
const hasBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * The request carries a JSON body (a body key can only come from one). A JSON Content-Type
 * on no body is no JSON body: LangChain's SearxngSearch sends exactly that, a POST with
 * `content-type: application/json`, its parameters in the query string and nothing after.
 */
export const isJsonRequest = (request: FastifyRequest): boolean =>
  JSON_TYPE.test(request.headers['content-type'] ?? '') && hasBody(request);

/** The api_key of a JSON body, when it holds a non-empty string. */
function bodyKeyOf(request: FastifyRequest): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const key = (body as { api_key?: unknown }).api_key;
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined;
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
  const key = headerOrPathKey(request);
  if (key === undefined || key === '') throw new DomainError('unauthorized', MISSING + (config?.missingKeyHint ?? ''));
  return key;
}

function headerOrPathKey(request: FastifyRequest): string | undefined {
  const fromHeaders = headerKey(request);
  const fromPath = request.routeOptions.config?.pathKey === true ? (request.params as { key?: string }).key : undefined;
  if (fromPath !== undefined && fromHeaders !== undefined && fromPath !== fromHeaders) {
    throw new DomainError('unauthorized', 'the key in the path and the key in the header differ; send one key');
  }
  return fromPath ?? fromHeaders;
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
 * response, errors included. With the anonymous tier on (`anonymous`), a request that carries
 * no key at all is admitted as its address group's anonymous caller, from that caller's own
 * bucket (`limiter` tells the callers apart: src/keys/caller-limiter.ts); a key that is
 * wrong, revoked or malformed is 401 as ever, never a silent downgrade.
 */
export function registerAuth(
  app: FastifyInstance,
  keys: ApiKeys,
  limiter: RateLimiter,
  anonymous?: AnonymousTier,
): void {
  app.decorateRequest('apiKeyId', undefined);
  app.decorateRequest('anonymous', false);
  app.decorateRequest('rateLimitState', undefined);
  app.decorateRequest('keyInBody', undefined);
  app.decorateRequest('takeRequests', undefined);
  /** The anonymous caller of a request without a key, when the tier admits its client. */
  const anonymousCallerOf = (request: FastifyRequest): string | undefined => anonymous?.callerOf(request.ip);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config?.auth !== true) return;
    const key = headerOrPathKey(request);
    // The key may be in the body: checked once it is parsed (preValidation), with the same limits.
    if ((key === undefined || key === '') && config.bodyKey === true && isJsonRequest(request)) {
      request.keyInBody = true;
      return;
    }
    const caller = key === undefined ? anonymousCallerOf(request) : undefined;
    if (caller !== undefined) await admitAnonymous(request, reply, caller);
    else await admit(request, reply, presentedKey(request));
  });
  // A key in the body and one in a header or path must agree, as two header keys must.
  app.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.config?.auth !== true || request.routeOptions.config.bodyKey !== true) return;
    const fromBody = bodyKeyOf(request);
    if (request.keyInBody !== true) {
      if (fromBody !== undefined && isJsonRequest(request) && fromBody !== presentedKey(request))
        throw new DomainError('unauthorized', 'the api_key in the body and the key in the header differ; send one key');
      return;
    }
    if (fromBody === undefined) {
      // No key anywhere (an empty path key is a key, and a wrong one).
      const caller = headerOrPathKey(request) === undefined ? anonymousCallerOf(request) : undefined;
      if (caller !== undefined) return admitAnonymous(request, reply, caller);
      throw new DomainError(
        'unauthorized',
        'missing API key: send "Authorization: Bearer <key>" or "api_key" in the JSON body',
      );
    }
    await admit(request, reply, fromBody);
  });

  async function admit(request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> {
    const record = await keys.authenticate(key);
    request.apiKeyId = record.id;
    await take(request, reply, record.id);
  }

  async function admitAnonymous(request: FastifyRequest, reply: FastifyReply, caller: string): Promise<void> {
    request.anonymous = true;
    await take(request, reply, caller);
  }

  /** Takes the request from the caller's bucket (the key's id, or `anon:<address group>`). */
  async function take(request: FastifyRequest, reply: FastifyReply, caller: string): Promise<void> {
    // The fetch capacity shares its slots fairly between callers, and MCP charges each tool call to it.
    request.ctx.caller = caller;
    // /mcp takes from the bucket per tools/call instead (src/mcp), so a refusal is a tool result.
    if (request.routeOptions.config?.rateLimit === 'per-tool-call') return;
    if (request.routeOptions.config?.rateLimit === 'peek') {
      request.rateLimitState = await peekRequest(limiter, caller);
      reply.headers(rateLimitHeaders({ ...request.rateLimitState, allowed: true }));
      return;
    }
    if (request.routeOptions.config?.rateLimit === 'per-page') {
      // Nothing to take yet (the cost is in the body), but an empty bucket is refused now,
      // as every route refuses it: before the body is read.
      const state = await peekRequest(limiter, caller);
      reply.headers(rateLimitHeaders({ ...state, allowed: true }));
      const refused = rateLimitRefusal({ ...state, allowed: state.retryAfterMs <= 0 });
      if (refused) throw refused;
      request.takeRequests = async (cost) => {
        const d = await takeRequest(limiter, caller, cost);
        reply.headers(rateLimitHeaders(d));
        const refusedCost = rateLimitRefusal(d, cost);
        if (refusedCost) throw refusedCost;
      };
      return;
    }
    const d = await takeRequest(limiter, caller);
    reply.headers(rateLimitHeaders(d));
    const refused = rateLimitRefusal(d);
    if (refused) throw refused;
  }
}
