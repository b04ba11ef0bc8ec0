import { int, oneOf } from './parsers.ts';
import { s } from './setting.ts';

/**
 * Settings of the search backend as a whole (failover or fusion, timeouts, result cache,
 * circuit breaker), spread into the main settings table by settings.ts. Each provider's own
 * settings (its URL, key, …) are declared in its descriptor under src/providers and join
 * these in src/scout-settings.ts; docs/providers.md explains each provider.
 */
export const providerSettings = {
  searchMode: s(
    'SCOUT_SEARCH_MODE',
    oneOf('failover', 'fusion'),
    'failover',
    'failover: the first listed provider that answers serves the search; fusion: all listed providers are asked in parallel and merged by reciprocal rank fusion.',
  ),
  providerTimeoutMs: s(
    'SCOUT_PROVIDER_TIMEOUT_MS',
    int(100, 60_000),
    '6000',
    'Time limit of one upstream search provider call, in milliseconds; past it Scout fails over to the next provider.',
  ),
  searchDeadlineMs: s(
    'SCOUT_SEARCH_DEADLINE_MS',
    int(100, 120_000),
    '15000',
    'Time limit of a whole search, failovers included, in milliseconds; kept below what agent clients wait (docs/providers.md).',
  ),
  searchCacheTtl: s(
    'SCOUT_SEARCH_CACHE_TTL',
    int(0, 86_400),
    '300',
    'Seconds an identical search is answered from the result cache without an upstream call; 0 disables the cache.',
  ),
  searchCacheSize: s(
    'SCOUT_SEARCH_CACHE_SIZE',
    int(0, 1_000_000),
    '1000',
    'Entries of the search result cache (least recently used are dropped first).',
  ),
  breakerThreshold: s(
    'SCOUT_BREAKER_THRESHOLD',
    int(1, 1000),
    '3',
    'Consecutive failures after which a search provider is suspended.',
  ),
  breakerCooldownMs: s(
    'SCOUT_BREAKER_COOLDOWN_MS',
    int(1000, 3_600_000),
    '30000',
    'How long a suspended search provider is skipped before one trial request, in milliseconds.',
  ),
} as const;
