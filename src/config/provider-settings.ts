import { int, oneOf, str } from './parsers.ts';
import { s } from './setting.ts';

/**
 * What SCOUT_SEARCH_PROVIDERS lists when unset: web search without keys (two general engines
 * that serve HTML, Wikipedia's API) fused with the local index. Names only: the providers
 * themselves are declared in src/providers.
 */
export const DEFAULT_SEARCH_PROVIDERS: readonly string[] = ['duckduckgo', 'mojeek', 'wikipedia', 'local'];

/**
 * Settings of the search backend as a whole (failover or fusion, timeouts, result cache,
 * circuit breaker), spread into the main settings table by settings.ts. Each provider's own
 * settings (its URL, key, …) are declared in its descriptor under src/providers and join
 * these in src/scout-settings.ts; docs/providers.md explains each provider.
 */
export const providerSettings = {
  searchMode: s(
    'SCOUT_SEARCH_MODE',
    oneOf('auto', 'failover', 'fusion'),
    'auto',
    'failover: the first listed provider that answers serves the search; fusion: all listed providers are asked in parallel and merged by reciprocal rank fusion; auto: fusion for the default providers, failover for a list you set.',
  ),
  contact: s(
    'SCOUT_CONTACT',
    str,
    '',
    'How the engines Scout queries can reach its operator (an e-mail address or a URL), sent in the User-Agent; Wikimedia asks automated clients for one.',
  ),
  blockCooldownMs: s(
    'SCOUT_BLOCK_COOLDOWN_MS',
    int(1000, 86_400_000),
    '600000',
    'How long an engine that answered with a block page (CAPTCHA, "unusual traffic", HTTP 202/403/429) is skipped before one trial search, in milliseconds.',
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

/**
 * The mode SCOUT_SEARCH_MODE=auto stands for: fusion when the list is the default one (web
 * engines that each see a different part of the web, plus Wikipedia and the local index),
 * failover for a list the operator wrote (its order is a preference: keyed, paid providers
 * first), as before `auto` existed.
 */
export function resolveSearchMode(
  mode: 'auto' | 'failover' | 'fusion',
  providers: readonly string[],
): 'failover' | 'fusion' {
  if (mode !== 'auto') return mode;
  const names = providers.map((n) => n.trim().toLowerCase());
  const isDefault =
    names.length === DEFAULT_SEARCH_PROVIDERS.length && names.every((n, i) => n === DEFAULT_SEARCH_PROVIDERS[i]);
  return isDefault ? 'fusion' : 'failover';
}

/** Providers that search the operator's own index, not the web. */
const OWN_INDEXES = new Set(['local', 'opensearch']);

/** Whether the list holds a provider that searches the web (not only an index of the operator's). */
export function searchesWeb(providers: readonly string[]): boolean {
  return providers.some((n) => !OWN_INDEXES.has(n.trim().toLowerCase()));
}

/** The start-up line that says what searches go to: `search: duckduckgo, mojeek, wikipedia, local (fusion)`. */
export function searchLine(providers: readonly string[], mode: 'auto' | 'failover' | 'fusion'): string {
  const names = providers.map((n) => n.trim().toLowerCase());
  const shown = names.length > 1 ? ` (${resolveSearchMode(mode, names)})` : '';
  return `search: ${names.join(', ')}${shown}`;
}
