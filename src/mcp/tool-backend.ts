import { randomUUID } from 'node:crypto';
import type { ApiKeys } from '../keys/api-keys.ts';
import type { FetchPage } from '../fetch/fetch-page.ts';
import { rateLimitRefusal, takeRequest } from '../keys/rate-limit.ts';
import type { RequestContext, SearchService } from '../search/search-service.ts';
import type { FetchRequest, FetchResponse } from '../schemas/fetch.ts';
import type { MapService } from '../map/map-service.ts';
import type { CrawlService } from '../crawl/crawl-service.ts';
import type { CrawlRequest, CrawlResponse } from '../schemas/crawl.ts';
import type { MapRequest, MapResponse } from '../schemas/map.ts';
import type { SearchRequest, SearchResponse } from '../schemas/search.ts';
import type { RateLimitDecision, RateLimiter } from '../store/ports.ts';

/**
 * What the MCP tools call: POST /v1/search and POST /v1/fetch, as bodies in and bodies out.
 * Failures are DomainErrors, whichever side they come from. Two implementations: Scout's own
 * services (below) and a running Scout's HTTP API (http-backend.ts).
 */
export interface ToolBackend<C = void> {
  /**
   * Charges one tools/call to `caller` before it does any work, as the HTTP API charges a
   * request before reading its body: `cost` requests at once (1, or one per page or query of
   * a tool that does several), all or none; a refusal (429) is thrown.
   */
  admit(caller: C, cost: number): Promise<void>;
  /** `caller`: who the call is for, when one backend serves many callers (POST /mcp); admitted already. */
  search(req: SearchRequest, caller: C): Promise<SearchResponse>;
  /** `signal` aborts when the tool call is cancelled: the fetch stops and frees its slot. */
  fetch(req: FetchRequest, caller: C, signal?: AbortSignal): Promise<FetchResponse>;
  /**
   * POST /v1/map: admitted already for its first fetch; each further sitemap or page it
   * fetches takes one more request from `caller`'s bucket as it goes (map-service.ts).
   */
  map(req: MapRequest, caller: C, signal?: AbortSignal): Promise<MapResponse>;
  /** POST /v1/crawl: charged as map is, one request per further page or sitemap it fetches (crawl-service.ts). */
  crawl(req: CrawlRequest, caller: C, signal?: AbortSignal): Promise<CrawlResponse>;
}

export interface ServiceCaller {
  /** The API key's id (its rate-limit bucket); resolved per call so a revoked key stops at once. */
  keyId(): Promise<string>;
  /** Context of one call: request_id, the clock of response_time_ms, the log. */
  context(): RequestContext;
  /** Told each rate-limit decision (the HTTP transport turns it into RateLimit-* headers). */
  onRateLimit?(d: RateLimitDecision): void;
}

export interface ServiceDeps {
  search: SearchService;
  fetch: FetchPage;
  map: MapService;
  crawl: CrawlService;
  rateLimiter: RateLimiter;
}

/**
 * The services themselves, each call charged as an HTTP request would be: one request from
 * the caller's rate-limit bucket, then the search service (which charges the monthly budget)
 * or the fetch pipeline (free). The caller comes with each call, so POST /mcp needs one
 * backend for all its requests and builds nothing per call.
 */
export function servicesBackend(deps: ServiceDeps): ToolBackend<ServiceCaller> {
  // The key is the caller the fetch capacity shares its slots between.
  const context = async (caller: ServiceCaller): Promise<RequestContext> => ({
    ...caller.context(),
    caller: await caller.keyId(),
  });
  return {
    async admit(caller, cost) {
      const d = await takeRequest(deps.rateLimiter, await caller.keyId(), cost);
      caller.onRateLimit?.(d);
      const refused = rateLimitRefusal(d, cost);
      if (refused) throw refused;
    },
    async search(req, caller) {
      return (await deps.search.run(req, await context(caller))).body;
    },
    async fetch(req, caller, signal) {
      return deps.fetch.run(req, { ...(await context(caller)), signal });
    },
    async map(req, caller, signal) {
      return deps.map.run(req, { ...(await context(caller)), signal });
    },
    async crawl(req, caller, signal) {
      return deps.crawl.run(req, { ...(await context(caller)), signal });
    },
  };
}

/** The services for one caller (`scout mcp` in-process). */
export function serviceBackend(deps: ServiceDeps, caller: ServiceCaller): ToolBackend {
  const services = servicesBackend(deps);
  return {
    admit: (_caller, cost) => services.admit(caller, cost),
    search: (req) => services.search(req, caller),
    fetch: (req, _caller, signal) => services.fetch(req, caller, signal),
    map: (req, _caller, signal) => services.map(req, caller, signal),
    crawl: (req, _caller, signal) => services.crawl(req, caller, signal),
  };
}

/**
 * The caller of `scout mcp` in-process: the API key of SCOUT_API_KEY, checked against the
 * local key store on every call (a key revoked with `scout keys revoke` stops working at
 * once), each call with a fresh request id.
 */
export function localCaller(keys: ApiKeys, apiKey: string): ServiceCaller {
  return {
    keyId: async () => (await keys.authenticate(apiKey)).id,
    context: () => ({ requestId: randomUUID(), startedAt: performance.now() }),
  };
}
