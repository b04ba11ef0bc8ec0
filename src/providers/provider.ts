import type { ProviderResult, SearchQuery } from '../domain/search-types.ts';

/**
 * One upstream search engine. A provider maps Scout's request to its native one and parses
 * the answer; it never retries, never fails over and never reads configuration itself: the
 * registry owns timeouts, failover and suspension (see registry.ts).
 */
export interface SearchProvider {
  /** Stable lower-case name used in config (`SCOUT_SEARCH_PROVIDERS`), logs and `x-scout-provider`. */
  readonly name: string;
  /**
   * Which SearchQuery filters the provider applies natively. Scout enforces the rest itself
   * on the results (and over-fetches when it has to filter).
   */
  readonly honours: ReadonlySet<'domains' | 'dates' | 'country'>;
  search(query: SearchQuery, signal: AbortSignal): Promise<ProviderResult[]>;
}

/** Why a provider failed; the registry uses the kind for failover and for the 502 message. */
export type ProviderFailureKind = 'timeout' | 'network' | 'http' | 'auth' | 'rate_limited' | 'malformed';

export class ProviderError extends Error {
  readonly provider: string;
  readonly failure: ProviderFailureKind;
  constructor(provider: string, failure: ProviderFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderError';
    this.provider = provider;
    this.failure = failure;
  }
}
