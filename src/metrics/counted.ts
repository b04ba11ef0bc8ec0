import type { SponsoredStores } from '../store/ports.ts';
import { fetchOutcome } from './fetch-outcome.ts';
import type { ScoutMetrics } from './scout-metrics.ts';

/** A fetch function that counts each outcome and the markdown it returned. */
export function countedFetch<A extends unknown[], O extends { content: string }>(
  fetch: (...args: A) => Promise<O>,
  metrics: Pick<ScoutMetrics, 'fetch'>,
): (...args: A) => Promise<O> {
  return async (...args) => {
    try {
      const out = await fetch(...args);
      metrics.fetch('ok', out.content.length);
      return out;
    } catch (e) {
      metrics.fetch(fetchOutcome(e), 0);
      throw e;
    }
  };
}

/** The sponsored stores with each written batch counted by event kind (once stored, not when queued). */
export function countedEvents(stores: SponsoredStores, metrics: Pick<ScoutMetrics, 'adEvents'>): SponsoredStores {
  const { events } = stores;
  return {
    ...stores,
    events: {
      ...events,
      async write(batch) {
        const charges = await events.write(batch);
        const kinds = { impression: 0, read: 0, click: 0 };
        for (const e of batch) kinds[e.kind]++;
        for (const [kind, n] of Object.entries(kinds)) if (n > 0) metrics.adEvents(kind as keyof typeof kinds, n);
        return charges;
      },
    },
  };
}
