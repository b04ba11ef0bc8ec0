import { ConfigError } from '../config/load-config.ts';
import { searchesWeb } from '../config/provider-settings.ts';
import type { ScoutConfig } from '../scout-settings.ts';
import type { AppDeps } from '../app.ts';
import type { FetchPage } from '../fetch/fetch-page.ts';
import type { MapService } from '../map/map-service.ts';
import type { CrawlService } from '../crawl/crawl-service.ts';
import { createMcpHttpHandler } from '../mcp/http-handler.ts';
import { createOriginPolicy } from '../mcp/origin-policy.ts';
import { callerRateLimiter } from '../keys/caller-limiter.ts';
import { selectTools } from '../mcp/tool-selection.ts';
import type { SearchService } from '../search/search-service.ts';
import type { Stores } from '../store/ports.ts';

/** POST /mcp: MCP over the same search and fetch services, and the Origin policy in front of it. */
export function assembleMcp(
  config: Pick<ScoutConfig, 'mcpMaxResultTokens' | 'mcpAllowedOrigins' | 'mcpTools' | 'searchProviders'>,
  publicUrl: string,
  deps: {
    search: SearchService;
    fetch: FetchPage;
    map: MapService;
    crawl: CrawlService;
    stores: Pick<Stores, 'rateLimiter' | 'anonymousRateLimiter'>;
  },
): AppDeps['mcp'] {
  return {
    handler: createMcpHttpHandler({
      search: deps.search,
      fetch: deps.fetch,
      map: deps.map,
      crawl: deps.crawl,
      // A tools/call of an anonymous caller (the anonymous tier) draws on its address group's bucket.
      rateLimiter: callerRateLimiter(deps.stores.rateLimiter, deps.stores.anonymousRateLimiter),
      maxResultTokens: config.mcpMaxResultTokens,
      searchScope: searchesWeb(config.searchProviders) ? 'web' : 'local',
      defaultTools: defaultTools(config.mcpTools),
    }),
    allowOrigin: createOriginPolicy({ publicUrl, allowedOrigins: config.mcpAllowedOrigins }),
  };
}

/**
 * SCOUT_MCP_TOOLS as tool names. The config room checks only their form (it knows no tools);
 * an unknown name stops the start here, as a bad setting does.
 */
export function defaultTools(names: readonly string[]): string[] {
  try {
    return selectTools(names, 'SCOUT_MCP_TOOLS');
  } catch (e) {
    throw new ConfigError((e as Error).message, { cause: e });
  }
}
