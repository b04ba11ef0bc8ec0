import type { SponsoredStores } from '../store/ports.ts';
import { fetchOutcome, type FetchOutcome } from './fetch-outcome.ts';
import type { ScoutMetrics } from './scout-metrics.ts';

/** Told of every fetch: the url asked for, its outcome and the characters of markdown it returned. */
export type FetchObserver = (url: string, outcome: FetchOutcome, chars: number) => void;

/** A fetch function whose every outcome is observed (metrics, the dashboard's activity). */
export function countedFetch<I extends { url: string }, O extends { content: string }>(
  fetch: (input: I) => Promise<O>,
  observe: FetchObserver,
): (input: I) => Promise<O> {
  return async (input) => {
    try {
      const out = await fetch(input);
      observe(input.url, 'ok', out.content.length);
      return out;
    } catch (e) {
      observe(input.url, fetchOutcome(e), 0);
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
