import { int, oneOf, optionalInt, optionalUrl, str, url, urlList, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/**
 * An OpenSearch / Elasticsearch index or alias name Scout can put in a URL path as it is:
 * lower case letters, digits, `.`, `_`, `-`, starting with a letter or digit (stricter than
 * the engines' own rule, which also allows `+`, `!`, `$` and others that need escaping).
 */
const indexName: Parser<string> = (raw) => {
  const v = raw.trim();
  if (!/^[a-z0-9][a-z0-9._-]{0,254}$/.test(v)) {
    throw new Error(`must be an index name of lower case letters, digits, ".", "_" and "-" (starting with a letter or digit), got "${raw}"`);
  }
  return v;
};

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

  opensearchUrl: s('SCOUT_OPENSEARCH_URL', urlList, '', 'OpenSearch (or Elasticsearch 8) node URLs, comma-separated (e.g. http://os1:9200,http://os2:9200); calls rotate between them and fail over to the next when one is down. Required when opensearch is listed and for `scout index … --to opensearch` (docs/opensearch.md).'),
  opensearchIndex: s('SCOUT_OPENSEARCH_INDEX', indexName, 'scout-pages', 'The OpenSearch index (or alias) Scout searches and writes; Scout puts an index template of the same name for it.'),
  opensearchUsername: s('SCOUT_OPENSEARCH_USERNAME', str, '', 'OpenSearch user for HTTP basic authentication (with SCOUT_OPENSEARCH_PASSWORD); unset: no authentication, or SCOUT_OPENSEARCH_API_KEY.'),
  opensearchPassword: s('SCOUT_OPENSEARCH_PASSWORD', str, '', 'Password of SCOUT_OPENSEARCH_USERNAME.'),
  opensearchApiKey: s('SCOUT_OPENSEARCH_API_KEY', str, '', 'Elasticsearch API key (the base64 "id:key" credential), sent as Authorization: ApiKey; instead of a user name and password.'),
  opensearchShards: s('SCOUT_OPENSEARCH_SHARDS', optionalInt(1, 1024), '', 'Primary shards of the index Scout creates (set in its index template); unset: the cluster\'s default (1). Fixed once the index exists.'),
  opensearchReplicas: s('SCOUT_OPENSEARCH_REPLICAS', optionalInt(0, 64), '', 'Replica shards of the index Scout creates (set in its index template); unset: the cluster\'s default (1). 0 on a single node.'),
  opensearchBulkDocs: s('SCOUT_OPENSEARCH_BULK_DOCS', int(1, 10_000), '500', 'Most documents in one _bulk request of `scout index … --to opensearch`.'),
  opensearchBulkMb: s('SCOUT_OPENSEARCH_BULK_MB', int(1, 100), '5', 'Most MiB in one _bulk request of `scout index … --to opensearch` (a larger single document is sent alone).'),
  opensearchBulkInFlight: s('SCOUT_OPENSEARCH_BULK_IN_FLIGHT', int(1, 16), '2', '_bulk requests in flight at once from `scout index … --to opensearch`; reading the input waits while they are all busy.'),
} as const;
