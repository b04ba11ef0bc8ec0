import type { ProviderResult, SearchQuery } from './search-types.ts';

/**
 * The port between the search service and the upstream side: final, filtered, deduplicated
 * results. src/providers/registry.ts runs the configured providers behind it.
 */
export interface SearchBackend {
  /** `log`: the request's logger, so failover lines carry its request_id (default: the backend's). */
  search(query: SearchQuery, signal?: AbortSignal, log?: BackendLogger): Promise<SearchAnswer>;
}

export interface SearchAnswer {
  /** At most query.maxResults, filtered, deduplicated, URLs cleaned; treat as read-only. */
  results: ProviderResult[];
  /** Provider(s) that answered, in configured order: the `x-scout-provider` header. */
  providers: string[];
  /** True when served from the result cache (no upstream call). */
  cached?: boolean;
}

/** pino-compatible; API keys never reach it. */
export interface BackendLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}
