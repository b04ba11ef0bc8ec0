/**
 * A value for each setting a listed provider requires (test/providers/provider-list.test.ts
 * checks every provider with `requires` has one here); a new provider with `requires` adds its own.
 */
export const REQUIRED_PROVIDER_ENV: Record<string, string> = {
  SCOUT_BRAVE_API_KEY: 'b',
  SCOUT_SEARXNG_URL: 'http://127.0.0.1:8888/search',
  SCOUT_TAVILY_API_KEY: 't',
  SCOUT_EXA_API_KEY: 'e',
  SCOUT_SERPER_API_KEY: 's',
  SCOUT_OPENSEARCH_URL: 'http://127.0.0.1:9200',
};
