import { ConfigError } from '../config/load-config.ts';
import { resolveSearchMode } from '../config/provider-settings.ts';
import { settings, type Config } from '../config/settings.ts';
import type { ProviderDeps } from './adapter-kit.ts';
import type { SearchProvider } from './provider.ts';
import type { ListedProvider } from './provider-descriptor.ts';
import { providerList, type ProviderListConfig } from './provider-list.ts';
import type { BackendLogger } from '../search/search-backend.ts';
import type { SearchBackendOptions } from './registry.ts';

/**
 * Builds the ordered provider list of SCOUT_SEARCH_PROVIDERS, once, at start-up, from the
 * descriptors of provider-list.ts. A listed provider without what it requires (its key, its
 * URL), an unknown name or a duplicate stops the start with a ConfigError naming the variable
 * to set. Adding a provider: docs/architecture.md, "Adding a provider".
 */

/** Providers built in here; `local` comes from the caller (it needs the store). */
export interface BuiltinProviders {
  local?: SearchProvider;
}

/** What createProviders reads: the list, and every provider's own settings. */
export type ProvidersConfig = Pick<Config, 'searchProviders'> & ProviderListConfig;

const LISTED = settings.searchProviders.env;

/** Every name SCOUT_SEARCH_PROVIDERS may list with these descriptors. */
export const providerNames = (list: readonly ListedProvider[] = providerList): string[] => [
  'local',
  ...list.map((d) => d.name),
];

export const PROVIDER_NAMES: readonly string[] = providerNames();

/** A string that is not blank, a list that is not empty, or any other value that is defined. */
function isSet(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined;
}

function buildOne(
  name: string,
  config: ProvidersConfig,
  builtins: BuiltinProviders,
  deps: ProviderDeps,
  list: readonly ListedProvider[],
): SearchProvider {
  if (name === 'local') {
    if (!builtins.local)
      throw new ConfigError(`${LISTED} lists local, but the local index is not available in this process`);
    return builtins.local;
  }
  const descriptor = list.find((d) => d.name === name);
  if (!descriptor) {
    throw new ConfigError(
      `${LISTED} lists unknown provider "${name}"; known providers: ${providerNames(list).join(', ')}`,
    );
  }
  const required = descriptor.requires;
  if (required && !isSet((config as Readonly<Record<string, unknown>>)[required.setting])) {
    throw new ConfigError(
      `${LISTED} lists ${name}, so ${descriptor.settings[required.setting]?.env} must be set ${required.as}`,
    );
  }
  return descriptor.build(config, deps);
}

/**
 * The providers of SCOUT_SEARCH_PROVIDERS, in failover order. `list`: the descriptors to
 * build from (provider-list.ts's; a test may pass its own).
 */
export function createProviders(
  config: ProvidersConfig,
  builtins: BuiltinProviders = {},
  http: ProviderDeps = {},
  list: readonly ListedProvider[] = providerList,
): SearchProvider[] {
  const names = config.searchProviders.map((n) => n.trim().toLowerCase());
  if (names.length === 0)
    throw new ConfigError(`${LISTED} must list at least one provider (${providerNames(list).join(', ')})`);
  const seen = new Set<string>();
  return names.map((name) => {
    if (seen.has(name)) throw new ConfigError(`${LISTED} lists ${name} twice; list each provider once`);
    seen.add(name);
    return buildOne(name, config, builtins, http, list);
  });
}

/** The backend's options from the settings (createSearchBackend(providers, options)). */
export function searchBackendOptions(config: Config, logger?: BackendLogger): SearchBackendOptions {
  return {
    mode: resolveSearchMode(config.searchMode, config.searchProviders),
    providerTimeoutMs: config.providerTimeoutMs,
    deadlineMs: config.searchDeadlineMs,
    cacheTtlMs: config.searchCacheTtl * 1000,
    cacheMax: config.searchCacheSize,
    breaker: { threshold: config.breakerThreshold, cooldownMs: config.breakerCooldownMs },
    blockCooldownMs: config.blockCooldownMs,
    ...(logger ? { logger } : {}),
  };
}
