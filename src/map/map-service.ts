import { DomainError } from '../domain/errors.ts';
import { parseFetchUrl } from '../fetch/url-guard.ts';
import { MAP_LIMITS, type MapRequest, type MapResponse } from '../schemas/map.ts';
import type { RequestContext } from '../search/search-service.ts';
import { withWalk, type WalkServiceDeps } from '../site/walk-call.ts';
import { toFrontierUrl } from '../site/frontier-url.ts';
import { mapSite } from './map-site.ts';

/**
 * POST /v1/map (and MCP map_site): defaults, the map's deadline, its charge, the envelope.
 *
 * Charged as it goes: the request's own charge (taken when it arrives, like any request)
 * covers its first sitemap or page fetch, and each further one takes one more request from
 * the same bucket before it is made; when the bucket refuses, the map stops there and answers
 * what it found (stopped: rate_limited). robots.txt fetches are not charged (one per origin
 * read, part of the politeness). So a map costs 1 + (sitemaps + pages fetched − 1), at most
 * 1 + MAP_LIMITS.sitemaps + MAP_LIMITS.pages − 1, and never more than the bucket holds.
 */

export type MapServiceDeps = WalkServiceDeps;

export function createMapService(deps: MapServiceDeps) {
  return {
    /** `shape.filter`: a compat shape's own URL filter (src/compat/tavily-map.ts), beside the request's patterns. */
    async run(
      req: MapRequest,
      ctx: RequestContext,
      shape: { filter?: (url: URL) => boolean } = {},
    ): Promise<MapResponse> {
      const start = startUrl(req.url);
      const timeoutMs = req.timeout_ms ?? MAP_LIMITS.timeoutMs.default;
      const out = await withWalk(deps, ctx, { timeoutMs, what: 'the map' }, (signal, call) =>
        mapSite(
          {
            start,
            limit: req.limit ?? MAP_LIMITS.limit.default,
            sitemap: req.sitemap ?? 'include',
            includeSubdomains: req.include_subdomains ?? false,
            search: req.search,
            include: req.include_paths ?? [],
            exclude: req.exclude_paths ?? [],
            filter: shape.filter,
            signal,
          },
          call,
        ),
      );
      return {
        request_id: ctx.requestId,
        url: req.url,
        results: out.results,
        complete: out.stopped === null,
        stopped: out.stopped,
        sitemaps_read: out.sitemapsRead,
        pages_read: out.pagesRead,
        charged: out.charged,
        skipped: out.skipped,
        response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
      };
    },
  };
}

export type MapService = ReturnType<typeof createMapService>;

/** The start URL as the map reads it: 400 for what /v1/fetch refuses as a URL, or what is not a page. */
function startUrl(raw: string): string {
  parseFetchUrl(raw);
  const start = toFrontierUrl(raw);
  if (!('url' in start)) throw new DomainError('invalid', `url cannot be mapped: ${start.skip}`);
  return start.url;
}
