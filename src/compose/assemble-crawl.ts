import type { ScoutConfig } from '../scout-settings.ts';
import { createCrawlService, type CrawlService } from '../crawl/crawl-service.ts';
import { callerRateLimiter } from '../keys/caller-limiter.ts';
import type { Stores } from '../store/ports.ts';
import type { Fetching } from './assemble-fetch.ts';

/**
 * POST /v1/crawl and MCP crawl_site: bounded crawls over the one fetch pipeline (its capacity,
 * its counting, its per-host gate), paced as site maps are, charged to the caller's own bucket
 * as they go.
 */
export function assembleCrawl(
  config: Pick<ScoutConfig, 'mapDelayMs'>,
  deps: { fetching: Fetching; stores: Pick<Stores, 'rateLimiter' | 'anonymousRateLimiter'> },
): CrawlService {
  return createCrawlService({
    fetch: deps.fetching.fetch,
    capture: deps.fetching.capture,
    rateLimiter: callerRateLimiter(deps.stores.rateLimiter, deps.stores.anonymousRateLimiter),
    delayMs: config.mapDelayMs,
  });
}
