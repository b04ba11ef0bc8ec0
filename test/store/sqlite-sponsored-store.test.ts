import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SponsoredStores } from '../../src/store/ports.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { campaignRecord as record, impression, read } from './contract/contract-fixtures.ts';

// What the port promises every backend is in test/store/contract/ (run by sqlite-stores.test.ts);
// these cases are about SQLite itself: two connections on one file, and multi-row inserts.

const roots: string[] = [];
const opened: SponsoredStores[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function open(dir?: string): { stores: SponsoredStores; dir: string } {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'scout-sp-store-'));
  if (!dir) roots.push(d);
  const stores = openSponsoredStore(d);
  opened.push(stores);
  return { stores, dir: d };
}

describe('SQLite campaign store', () => {
  it('moves its version when another connection (the CLI) changes a campaign', async () => {
    const { stores, dir } = open();
    const other = open(dir).stores;
    const v0 = await stores.campaigns.version();
    await other.campaigns.insert(record('cmp_a'));
    const v1 = await stores.campaigns.version();
    expect(v1).toBeGreaterThan(v0);
    await other.campaigns.setStatus('cmp_a', 'paused', 'x');
    expect(await stores.campaigns.version()).toBeGreaterThan(v1);
    const v2 = await stores.campaigns.version();
    await other.events.write([impression('rec_1', 'cmp_a'), read('rec_1', 'cmp_a')]);
    expect(await stores.campaigns.version()).toBe(v2);
  });
});

describe('SQLite ad event store, large batches', () => {
  it('counts each impression once across multi-row inserts: repeats within a batch and across batches are not counted', async () => {
    const { stores } = open();
    await stores.campaigns.insert(record('cmp_a'));
    await stores.campaigns.insert(record('cmp_b'));
    const first = Array.from({ length: 130 }, (_, n) =>
      impression(`rec_${String(n).padStart(4, '0')}`, n % 2 ? 'cmp_a' : 'cmp_b'),
    );
    // The same 130 again, plus 30 new ones, with 5 of the new ones twice in the same batch.
    const fresh = Array.from({ length: 30 }, (_, n) => impression(`rec_new_${n}`, 'cmp_a'));
    await stores.events.write(first);
    await stores.events.write([...first, ...fresh, ...fresh.slice(0, 5)]);
    const stats = new Map((await stores.events.stats()).map((s) => [s.campaignId, s.impressions]));
    expect(stats.get('cmp_a')).toBe(65 + 30);
    expect(stats.get('cmp_b')).toBe(65);
    expect(await stores.events.findImpression('rec_0129')).toMatchObject({ campaignId: 'cmp_a', position: 1 });
  });
});
