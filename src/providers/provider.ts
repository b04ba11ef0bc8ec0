import type { ProviderResult, SearchQuery } from '../search/search-types.ts';

/** Calls per second and at once that one provider allows (pacer.ts). */
export interface Pacing {
  readonly perSecond: number;
  readonly inFlight: number;
}

/** A SearchQuery filter a provider may apply natively. */
export type ProviderFilter = 'domains' | 'dates' | 'country';

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
  readonly honours: ReadonlySet<ProviderFilter>;
  /**
   * `query.maxResults` may exceed 20 when the registry over-fetches for Scout-side
   * filtering; a provider clamps it to what its upstream accepts.
   */
  /**
   * True when the provider's URLs are already unique and exact (the local index keys its
   * documents by URL, and sections of one page differ only by fragment): the registry then
   * keeps them as they are instead of merging fragment-only differences.
   */
  readonly uniqueUrls?: boolean;
  /**
   * True when the provider answers on the calling tick, without I/O (the local index): no
   * timer could interrupt it, so the registry calls it without one.
   */
  readonly synchronous?: boolean;
  /**
   * For a provider whose answers change with writes Scout can see (the local index): a value
   * that changes whenever they may have, whoever wrote (this process, another connection,
   * another process). The result cache keys answers by it, so a write is seen by the very
   * next search; providers without it are cached for the configured TTL.
   */
  revision?(): string;
  /**
   * How often the registry may call it (engines scraped or used without a key ask for
   * restraint): calls start at most `perSecond` per second, at most `inFlight` at a time, and
   * the others wait their turn in order, within their time limit.
   */
  readonly pacing?: Pacing;
  search(query: SearchQuery, signal: AbortSignal): Promise<ProviderResult[]>;
}

/**
 * Why a provider failed; the registry uses the kind for failover, suspension and the 502
 * message. `blocked`: the engine refused automated queries (a CAPTCHA or "unusual traffic"
 * page, or its 202/403/429), which suspends it at once for the block cool-down. `malformed`:
 * the answer came but could not be read (for an HTML engine: its markup changed), reported
 * as a parse failure, never as "no results". `busy`: Scout's own pacing queue for the engine
 * had no room in the time left, which says nothing about the engine's health.
 */
export type ProviderFailureKind =
  | 'timeout'
  | 'network'
  | 'http'
  | 'auth'
  | 'rate_limited'
  | 'malformed'
  | 'blocked'
  | 'busy';

export interface ProviderErrorOptions {
  cause?: unknown;
  /** Upstream HTTP status, when there was one. */
  status?: number;
  /** Upstream error text for logs only (already stripped of the API key, truncated). */
  detail?: string;
}

/**
 * A provider's failure. `message` is short and safe for the API caller (it ends up in the
 * 502 message): it never carries the API key, the upstream URL or the upstream's own text.
 */
export class ProviderError extends Error {
  readonly provider: string;
  readonly failure: ProviderFailureKind;
  readonly status?: number;
  readonly detail?: string;
  constructor(provider: string, failure: ProviderFailureKind, message: string, options?: ProviderErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.failure = failure;
    if (options?.status !== undefined) this.status = options.status;
    if (options?.detail !== undefined) this.detail = options.detail;
  }
}
