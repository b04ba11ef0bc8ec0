import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventQueue } from '../../src/sponsored/event-queue.ts';
import type { AdEvent, AdEventStore, Charge, SponsoredStores } from '../../src/store/ports.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

/** The real SQLite event store, with its write calls observed (and failing while `failing`). */
function observedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'scout-queue-'));
  const stores: SponsoredStores = openSponsoredStore(dir);
  cleanup.push(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const batches: number[] = [];
  const state = { failing: false };
  const store: AdEventStore = {
    ...stores.events,
    async write(events) {
      if (state.failing) throw new Error('disk full');
      batches.push(events.length);
      return stores.events.write(events);
    },
  };
  return { store, batches, state, stores };
}

const impression = (i: number): AdEvent => ({
  kind: 'impression',
  impression: {
    recId: `rec_${i}`,
    campaignId: 'cmp_a',
    landingUrl: 'https://a.example/',
    shownAt: 1,
    requestId: 'r',
    position: 1,
  },
});

describe('write-behind event queue', () => {
  it('queues events and writes them as one batch; queued impressions resolve at once', async () => {
    const { store, batches, stores } = observedStore();
    const q = createEventQueue({
      store,
      flushMs: 60_000,
      onCharges: () => undefined,
      onError: (e) => {
        throw e;
      },
    });
    for (let i = 0; i < 5; i++) q.push(impression(i));
    expect(batches).toEqual([]);
    expect(q.pendingImpression('rec_3')?.landingUrl).toBe('https://a.example/');
    await q.flush();
    expect(batches).toEqual([5]);
    expect(q.pendingImpression('rec_3')).toBeUndefined();
    expect(await stores.events.findImpression('rec_3')).toBeDefined();
    await q.close();
  });

  it('writes on the timer without being asked', async () => {
    const { store, batches } = observedStore();
    await new Promise<void>((resolve) => {
      const q = createEventQueue({ store, flushMs: 5, onCharges: () => resolve(), onError: () => undefined });
      cleanup.push(() => q.close());
      q.push(impression(1));
    });
    expect(batches).toEqual([1]);
  });

  it('writes at once when a batch is full, without waiting for the timer', async () => {
    const { store, batches } = observedStore();
    const q = createEventQueue({
      store,
      flushMs: 60_000,
      batchSize: 3,
      onCharges: () => undefined,
      onError: () => undefined,
    });
    cleanup.push(() => q.close());
    for (let i = 0; i < 2; i++) q.push(impression(i));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([]);
    q.push(impression(2));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([3]);
  });

  it('keeps events while the store fails, within bounds; reports an outage once, every drop, and the recovery', async () => {
    const { store, batches, state } = observedStore();
    const errors: unknown[] = [];
    const charges: Charge[][] = [];
    let recovered = 0;
    const q = createEventQueue({
      store,
      flushMs: 60_000,
      maxPending: 3,
      onCharges: (c) => charges.push(c),
      onError: (e) => errors.push(e),
      onRecovered: () => recovered++,
    });
    state.failing = true;
    for (let i = 0; i < 5; i++) q.push(impression(i));
    await q.flush();
    await q.flush(); // a retry in the same outage: not reported again
    expect((errors as Error[]).map((e) => e.message.replace(/: .*$/, ''))).toEqual([
      'ad events could not be written (5 kept, retried every 60000 ms)',
      '2 ad events dropped',
    ]);
    expect(recovered).toBe(0);
    // The two oldest were dropped to stay within maxPending, and no longer resolve.
    expect(q.pendingImpression('rec_0')).toBeUndefined();
    expect(q.pendingImpression('rec_4')).toBeDefined();
    state.failing = false;
    await q.close();
    expect(recovered).toBe(1);
    expect(batches).toEqual([3]);
    expect(charges).toEqual([[]]);
    q.push(impression(9)); // after close: ignored
    expect(q.pendingImpression('rec_9')).toBeUndefined();
  });
});
