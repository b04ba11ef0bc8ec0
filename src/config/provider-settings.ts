import { int, oneOf, optionalUrl, str, url } from './parsers.ts';
import { s } from './setting.ts';

/**
 * Settings of the upstream search providers (URLs, API keys, timeouts, failover), spread
 * into the main settings table by settings.ts. docs/providers.md explains each provider.
 * A key is only required when its provider is listed in SCOUT_SEARCH_PROVIDERS; that check
 * happens in src/providers/create-providers.ts, with the other start-up checks.
 */
export const providerSettings = {
  searchMode: s('SCOUT_SEARCH_MODE', oneOf('failover', 'fusion'), 'failover', 'failover: the first listed provider that answers serves the search; fusion: all listed providers are asked in parallel and merged by reciprocal rank fusion.'),
  providerTimeoutMs: s('SCOUT_PROVIDER_TIMEOUT_MS', int(100, 60_000), '6000', 'Time limit of one upstream search provider call, in milliseconds; past it Scout fails over to the next provider.'),
  searchDeadlineMs: s('SCOUT_SEARCH_DEADLINE_MS', int(100, 120_000), '15000', 'Time limit of a whole search, failovers included, in milliseconds; kept below what agent clients wait (docs/providers.md).'),
  searchCacheTtl: s('SCOUT_SEARCH_CACHE_TTL', int(0, 86_400), '300', 'Seconds an identical search is answered from the result cache without an upstream call; 0 disables the cache.'),
  searchCacheSize: s('SCOUT_SEARCH_CACHE_SIZE', int(0, 1_000_000), '1000', 'Entries of the search result cache (least recently used are dropped first).'),
  breakerThreshold: s('SCOUT_BREAKER_THRESHOLD', int(1, 1000), '3', 'Consecutive failures after which a search provider is suspended.'),
  breakerCooldownMs: s('SCOUT_BREAKER_COOLDOWN_MS', int(1000, 3_600_000), '30000', 'How long a suspended search provider is skipped before one trial request, in milliseconds.'),

  braveUrl: s('SCOUT_BRAVE_URL', url, 'https://api.search.brave.com/res/v1/web/search', 'Brave Web Search API endpoint (full URL).'),
  braveApiKey: s('SCOUT_BRAVE_API_KEY', str, '', 'Brave Search API subscription token; required when brave is listed in SCOUT_SEARCH_PROVIDERS.'),
  searxngUrl: s('SCOUT_SEARXNG_URL', optionalUrl, '', "Your SearXNG instance's /search URL (e.g. http://searxng:8080/search); required when searxng is listed. The instance must enable json in search.formats."),
  searxngApiKey: s('SCOUT_SEARXNG_API_KEY', str, '', 'Optional; sent as a Bearer token for SearXNG instances behind an authenticating proxy.'),
  tavilyUrl: s('SCOUT_TAVILY_URL', url, 'https://api.tavily.com/search', 'Tavily /search endpoint (full URL).'),
  tavilyApiKey: s('SCOUT_TAVILY_API_KEY', str, '', 'Tavily API key (tvly-…); required when tavily is listed.'),
  exaUrl: s('SCOUT_EXA_URL', url, 'https://api.exa.ai/search', 'Exa /search endpoint (full URL).'),
  exaApiKey: s('SCOUT_EXA_API_KEY', str, '', 'Exa API key; required when exa is listed.'),
  serperUrl: s('SCOUT_SERPER_URL', url, 'https://google.serper.dev/search', 'Serper /search endpoint (full URL).'),
  serperApiKey: s('SCOUT_SERPER_API_KEY', str, '', 'Serper API key; required when serper is listed.'),
  marginaliaUrl: s('SCOUT_MARGINALIA_URL', url, 'https://api2.marginalia-search.com/search', 'Marginalia Search API endpoint (full URL).'),
  marginaliaApiKey: s('SCOUT_MARGINALIA_API_KEY', str, '', 'Marginalia API key; required when marginalia is listed (`public` is a shared, often rate-limited key for trials).'),
} as const;
