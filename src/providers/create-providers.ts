import { ConfigError } from '../config/load-config.ts';
import { settings, type Config } from '../config/settings.ts';
import type { ProviderDeps } from './adapter-kit.ts';
import { createBraveProvider } from './brave.ts';
import { createExaProvider } from './exa.ts';
import { createMarginaliaProvider } from './marginalia.ts';
import { openSearchConnection } from './opensearch/connection.ts';
import { createOpenSearchProvider } from './opensearch/opensearch-provider.ts';
import type { SearchProvider } from './provider.ts';
import type { BackendLogger } from '../search/search-backend.ts';
import type { SearchBackendOptions } from './registry.ts';
import { createSearxngProvider } from './searxng.ts';
import { createSerperProvider } from './serper.ts';
import { createTavilyProvider } from './tavily.ts';

/**
 * Builds the ordered provider list of SCOUT_SEARCH_PROVIDERS, once, at start-up. A listed
 * provider without its key (or SearXNG or OpenSearch without its URL), an unknown name or a duplicate
 * stops the start with a ConfigError naming the variable to set. Adding a provider: its
 * file, its settings in provider-settings.ts, one entry here.
 */

/** Providers built in here; `local` comes from the caller (it needs the store). */
export interface BuiltinProviders {
  local?: SearchProvider;
}

type KeySetting = 'braveApiKey' | 'tavilyApiKey' | 'exaApiKey' | 'serperApiKey' | 'marginaliaApiKey';

interface WebFactory {
  key: KeySetting;
  what: string;
  build(config: Config, apiKey: string, deps: ProviderDeps): SearchProvider;
}

const KEYED: Record<string, WebFactory> = {
  brave: { key: 'braveApiKey', what: 'a Brave Search API subscription token', build: (c, apiKey, d) => createBraveProvider({ ...d, url: c.braveUrl, apiKey }) },
  tavily: { key: 'tavilyApiKey', what: 'a Tavily API key (tvly-…)', build: (c, apiKey, d) => createTavilyProvider({ ...d, url: c.tavilyUrl, apiKey }) },
  exa: { key: 'exaApiKey', what: 'an Exa API key', build: (c, apiKey, d) => createExaProvider({ ...d, url: c.exaUrl, apiKey }) },
  serper: { key: 'serperApiKey', what: 'a Serper API key', build: (c, apiKey, d) => createSerperProvider({ ...d, url: c.serperUrl, apiKey }) },
  marginalia: {
    key: 'marginaliaApiKey',
    what: 'a Marginalia API key, or `public` for the shared, often rate-limited trial key',
    build: (c, apiKey, d) => createMarginaliaProvider({ ...d, url: c.marginaliaUrl, apiKey }),
  },
};

export const PROVIDER_NAMES = ['local', 'searxng', 'opensearch', ...Object.keys(KEYED)] as const;

const LISTED = settings.searchProviders.env;

function buildOne(name: string, config: Config, builtins: BuiltinProviders, deps: ProviderDeps): SearchProvider {
  if (name === 'local') {
    if (!builtins.local) throw new ConfigError(`${LISTED} lists local, but the local index is not available in this process`);
    return builtins.local;
  }
  if (name === 'searxng') {
    if (!config.searxngUrl) {
      throw new ConfigError(`${LISTED} lists searxng, so ${settings.searxngUrl.env} must be set to the instance's /search URL`);
    }
    const apiKey = config.searxngApiKey.trim();
    return createSearxngProvider({ ...deps, url: config.searxngUrl, ...(apiKey ? { apiKey } : {}) });
  }
  if (name === 'opensearch') return createOpenSearchProvider(openSearchConnection(config, `${LISTED} lists opensearch`), deps);
  const factory = KEYED[name];
  if (!factory) {
    throw new ConfigError(`${LISTED} lists unknown provider "${name}"; known providers: ${PROVIDER_NAMES.join(', ')}`);
  }
  const apiKey = config[factory.key].trim();
  if (!apiKey) throw new ConfigError(`${LISTED} lists ${name}, so ${settings[factory.key].env} must be set (${factory.what})`);
  return factory.build(config, apiKey, deps);
}

/** The providers of SCOUT_SEARCH_PROVIDERS, in failover order. */
export function createProviders(config: Config, builtins: BuiltinProviders = {}, http: ProviderDeps = {}): SearchProvider[] {
  const names = config.searchProviders.map((n) => n.trim().toLowerCase());
  if (names.length === 0) throw new ConfigError(`${LISTED} must list at least one provider (${PROVIDER_NAMES.join(', ')})`);
  const seen = new Set<string>();
  return names.map((name) => {
    if (seen.has(name)) throw new ConfigError(`${LISTED} lists ${name} twice; list each provider once`);
    seen.add(name);
    return buildOne(name, config, builtins, http);
  });
}

/** The backend's options from the settings (createSearchBackend(providers, options)). */
export function searchBackendOptions(config: Config, logger?: BackendLogger): SearchBackendOptions {
  return {
    mode: config.searchMode,
    providerTimeoutMs: config.providerTimeoutMs,
    deadlineMs: config.searchDeadlineMs,
    cacheTtlMs: config.searchCacheTtl * 1000,
    cacheMax: config.searchCacheSize,
    breaker: { threshold: config.breakerThreshold, cooldownMs: config.breakerCooldownMs },
    ...(logger ? { logger } : {}),
  };
}
