import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerEventWriter } from '../../src/store/sqlite/ad-event-writer.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import type { AdEvent, Charge } from '../../src/store/ports.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const impression = (n: number): AdEvent => ({
  kind: 'impression',
  impression: {
    recId: `rec_${String(n).padStart(5, '0')}`,
    campaignId: 'cmp_a',
    landingUrl: 'https://a.example/',
    shownAt: Date.parse('2026-11-21T10:00:00Z'),
    requestId: 'r',
    position: 1,
  },
});

describe('sponsored event writer thread', () => {
  it("writes batches from its own thread; the caller's connection reads them once written", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-writer-'));
    roots.push(dir);
    const stores = openSponsoredStore(dir);
    await stores.events.write(Array.from({ length: 120 }, (_, n) => impression(n)));
    await stores.events.write([impression(120), impression(0)]);
    expect(await stores.events.findImpression('rec_00120')).toMatchObject({ campaignId: 'cmp_a' });
    expect((await stores.events.stats()).find((s) => s.campaignId === 'cmp_a')?.impressions).toBe(121);
    await stores.close();
  });

  it('falls back to writing on the calling thread when the writer thread cannot open the file', async () => {
    const written: AdEvent[][] = [];
    const fallback = {
      write: async (events: readonly AdEvent[]): Promise<Charge[]> => (written.push([...events]), []),
    };
    // A path under a regular file: no folder can be made there, so the thread fails to start.
    const dir = mkdtempSync(join(tmpdir(), 'scout-writer-'));
    roots.push(dir);
    const writer = createWorkerEventWriter(join('/dev/null', 'nope', 'sponsored.db'), fallback);
    expect(await writer.write([impression(1)])).toEqual([]);
    expect(await writer.write([impression(2)])).toEqual([]);
    expect(written.map((b) => b.length)).toEqual([1, 1]);
    await writer.close();
  });
});
