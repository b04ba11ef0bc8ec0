import { inSeconds } from '../domain/durations.ts';
import { DomainError } from '../domain/errors.ts';
import { parseFetchUrl } from '../fetch/url-guard.ts';
import { rateLimitRefusal, takeRequest } from '../keys/rate-limit.ts';
import { CRAWL_LIMITS, type CrawlRequest, type CrawlResponse } from '../schemas/crawl.ts';
import { EXTRACT_LIMITS } from '../schemas/extract.ts';
import type { RequestContext } from '../search/search-service.ts';
import type { FetchCapture } from '../site/fetch-capture.ts';
import { toFrontierUrl } from '../site/frontier-url.ts';
import { createHostPacer } from '../site/host-pacer.ts';
import { createSiteFetch, type PipelineFetch } from '../site/site-fetch.ts';
import type { RateLimiter } from '../store/ports.ts';
import { crawlSite } from './crawl-site.ts';

/**
 * POST /v1/crawl (and MCP crawl_site): defaults, the crawl's deadline, its charge, the envelope.
 *
 * Charged as it goes, as POST /v1/map is: the request's own charge (taken when it arrives)
 * covers the crawl's first page or sitemap fetch, and each further one takes one more request
 * from the same bucket before it is made; when the bucket refuses, the crawl stops there and
 * answers the pages it has (stopped: rate_limited). robots.txt fetches are free. So a crawl
 * costs max(1, pages + sitemaps fetched), at most limit + CRAWL_LIMITS.extraFetches pages plus
 * MAP_LIMITS.sitemaps sitemaps with sitemap: include.
 */

export interface CrawlServiceDeps {
  /** The fetch pipeline behind /v1/fetch: capacity, counting, every layer. */
  fetch: PipelineFetch;
  capture: FetchCapture;
  /** Draws on the caller's bucket (keys' and anonymous callers'). */
  rateLimiter: RateLimiter;
  /** SCOUT_MAP_DELAY_MS: the pause between two requests of a site walk to one host. */
  delayMs: number;
}

/** Requests of one crawl in flight at once (each host still gets one at a time). */
const MAX_IN_FLIGHT = 2;

/** What the schema cannot say, checked before anything is fetched. */
export function checkCrawlRequest(req: CrawlRequest): string {
  parseFetchUrl(req.url);
  const start = toFrontierUrl(req.url);
  if (!('url' in start)) throw new DomainError('invalid', `url cannot be crawled: ${start.skip}`);
  if (req.max_passages !== undefined && req.query === undefined) {
    throw new DomainError('invalid', 'max_passages needs query: it says how many passages per page the query keeps');
  }
  return start.url;
}

export function createCrawlService(deps: CrawlServiceDeps) {
  return {
    /** `shape.filter`: a compat shape's own URL filter (src/compat/tavily-crawl.ts), beside the request's patterns. */
    async run(
      req: CrawlRequest,
      ctx: RequestContext,
      shape: { filter?: (url: URL) => boolean } = {},
    ): Promise<CrawlResponse> {
      const start = checkCrawlRequest(req);
      const timeoutMs = req.timeout_ms ?? CRAWL_LIMITS.timeoutMs.default;
      const deadline = new AbortController();
      const timer = setTimeout(
        () =>
          deadline.abort(new DomainError('timeout', `the crawl took its whole timeout_ms of ${inSeconds(timeoutMs)}`)),
        timeoutMs,
      );
      const onGone = () => deadline.abort(ctx.signal?.reason);
      if (ctx.signal?.aborted === true) onGone();
      else ctx.signal?.addEventListener('abort', onGone, { once: true });
      const { caller } = ctx;
      try {
        const out = await crawlSite(
          {
            start,
            maxDepth: req.max_depth ?? CRAWL_LIMITS.maxDepth.default,
            limit: req.limit ?? CRAWL_LIMITS.limit.default,
            sitemap: (req.sitemap ?? 'skip') === 'include',
            includeSubdomains: req.include_subdomains ?? false,
            include: req.include_paths ?? [],
            exclude: req.exclude_paths ?? [],
            filter: shape.filter,
            maxChars:
              req.max_chars ?? (req.query === undefined ? CRAWL_LIMITS.maxChars.default : CRAWL_LIMITS.maxChars.max),
            query: req.query,
            maxPassages: req.max_passages ?? EXTRACT_LIMITS.maxPassages.default,
            signal: deadline.signal,
          },
          {
            fetch: createSiteFetch(deps.fetch, deps.capture, caller),
            pacer: createHostPacer({ maxInFlight: MAX_IN_FLIGHT, delayMs: deps.delayMs }),
            // A caller without a bucket (none: every route and tool call has one) is not charged.
            charge: async () =>
              caller === undefined || rateLimitRefusal(await takeRequest(deps.rateLimiter, caller)) === undefined,
          },
        );
        return {
          request_id: ctx.requestId,
          url: req.url,
          pages: out.pages,
          complete: out.stopped === null,
          stopped: out.stopped,
          pages_read: out.pagesRead,
          sitemaps_read: out.sitemapsRead,
          charged: out.charged,
          skipped: out.skipped,
          response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
        };
      } finally {
        clearTimeout(timer);
        ctx.signal?.removeEventListener('abort', onGone);
      }
    },
  };
}

export type CrawlService = ReturnType<typeof createCrawlService>;
