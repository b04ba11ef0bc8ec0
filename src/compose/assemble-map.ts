import type { ScoutConfig } from '../scout-settings.ts';
import { callerRateLimiter } from '../keys/caller-limiter.ts';
import { createMapService, type MapService } from '../map/map-service.ts';
import type { Stores } from '../store/ports.ts';
import type { Fetching } from './assemble-fetch.ts';

/**
 * POST /v1/map and MCP map_site: site maps over the one fetch pipeline (its capacity, its
 * counting, its per-host gate), charged to the caller's own bucket as they go.
 */
export function assembleMap(
  config: Pick<ScoutConfig, 'mapDelayMs'>,
  deps: { fetching: Fetching; stores: Pick<Stores, 'rateLimiter' | 'anonymousRateLimiter'> },
): MapService {
  return createMapService({
    fetch: deps.fetching.fetch,
    capture: deps.fetching.capture,
    rateLimiter: callerRateLimiter(deps.stores.rateLimiter, deps.stores.anonymousRateLimiter),
    delayMs: config.mapDelayMs,
  });
}
