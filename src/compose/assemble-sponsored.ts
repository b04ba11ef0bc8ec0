import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Closers } from '../domain/closers.ts';
import { countedEvents } from '../metrics/counted.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';
import {
  createSponsored,
  sponsoredOptionsFrom,
  type LandingNetwork,
  type Sponsored,
} from '../sponsored/create-sponsored.ts';
import type { Storage } from './assemble-storage.ts';

/** Sponsored results over storage's sponsored stores, each written batch of ad events counted. */
export async function assembleSponsored(
  config: ScoutConfig,
  network: LandingNetwork,
  deps: { logger: Logger; metrics: ScoutMetrics; storage: Storage },
  closers: Closers,
): Promise<Sponsored> {
  const { logger, metrics, storage } = deps;
  const sponsored = createSponsored({
    ...sponsoredOptionsFrom(config),
    stores: countedEvents(storage.sponsored, metrics),
    // One key for every process on this storage: a click URL from any replica (or from before
    // a restart) verifies everywhere.
    recIdKey: await storage.sponsored.secrets.get('rec_id', 32),
    ...(network.resolver
      ? { resolver: network.resolver, landingProbe: network.landingProbe }
      : network.landingProbe
        ? { landingProbe: network.landingProbe }
        : {}),
    // Ads are skipped or their events kept for a retry; searches answer either way.
    onError: (err) => logger.error({ err }, 'sponsored results: storage failed'),
    onEventsRecovered: () => logger.info({}, 'sponsored results: ad events written again'),
  });
  closers.add(() => sponsored.close());
  return sponsored;
}
