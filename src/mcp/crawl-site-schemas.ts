import { Type, type Static } from '@sinclair/typebox';
import { CRAWL_LIMITS, CrawlRequest } from '../schemas/crawl.ts';
import { rule } from '../schemas/rule.ts';

/**
 * crawl_site's arguments: POST /v1/crawl's own (the same limits and messages) but `query` and
 * `max_passages` (a crawl for passages is POST /v1/extract's job over the URLs map_site finds),
 * and a shorter default deadline: the MCP TypeScript SDK gives up on a request after 60 s by
 * default, so the crawl answers by 50 s, leaving the rest for the result to travel.
 */
export const CRAWL_SITE_TIMEOUT_MS = 50_000;

const L = CRAWL_LIMITS;

export const CrawlSiteArguments = Type.Object(
  {
    url: CrawlRequest.properties.url,
    max_depth: CrawlRequest.properties.max_depth,
    limit: CrawlRequest.properties.limit,
    include_paths: CrawlRequest.properties.include_paths,
    exclude_paths: CrawlRequest.properties.exclude_paths,
    include_subdomains: CrawlRequest.properties.include_subdomains,
    sitemap: CrawlRequest.properties.sitemap,
    max_chars: CrawlRequest.properties.max_chars,
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: L.timeoutMs.min,
        maximum: L.timeoutMs.max,
        default: CRAWL_SITE_TIMEOUT_MS,
        ...rule(`must be an integer from ${L.timeoutMs.min} to ${L.timeoutMs.max}`),
      }),
    ),
  },
  { title: 'CrawlSiteArguments', additionalProperties: false },
);
export type CrawlSiteArguments = Static<typeof CrawlSiteArguments>;
