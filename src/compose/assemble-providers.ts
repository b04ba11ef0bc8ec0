import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Activity } from '../admin/activity.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';
import { createProviders, searchBackendOptions } from '../providers/create-providers.ts';
import { createLocalProvider } from '../providers/local.ts';
import { createSearchBackend, type ManagedSearchBackend } from '../providers/registry.ts';
import { scoutUserAgent } from '../providers/user-agent.ts';
import type { Storage } from './assemble-storage.ts';

/**
 * The providers of SCOUT_SEARCH_PROVIDERS (the local index among them, built here since it
 * needs the store) behind the registry: timeouts, failover or fusion, breakers, the result
 * cache (storage's shared one when there is one). Every provider call is counted.
 */
export function assembleProviders(
  config: ScoutConfig,
  deps: { logger: Logger; metrics: ScoutMetrics; activity: Activity; storage: Storage },
): ManagedSearchBackend {
  const { logger, metrics, activity, storage } = deps;
  const providers = createProviders(
    config,
    { local: createLocalProvider(storage.index) },
    { userAgent: scoutUserAgent(config.contact) },
  );
  return createSearchBackend(providers, {
    ...searchBackendOptions(config, logger.child({ component: 'search' })),
    ...(storage.resultCache ? { cache: storage.resultCache } : {}),
    onProviderCall: (provider, outcome, seconds) => {
      metrics.provider(provider, outcome, seconds);
      activity.provider(provider, outcome, seconds);
    },
  });
}
