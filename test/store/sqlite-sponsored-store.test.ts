import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignRecord, SponsoredStores } from '../../src/store/sponsored-ports.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';

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

const record = (id: string, over: Partial<CampaignRecord> = {}): CampaignRecord => ({
  id,
  advertiser: 'Acme',
  title: 'Shoes',
  url: 'https://acme.example/',
  content: 'Ad text',
  keywords: ['running shoes'],
  negativeKeywords: ['free'],
  countries: ['US'],
  bidMicros: 300,
  budgetMicros: 1000,
  dailyCapMicros: null,
  startDate: null,
  endDate: null,
  status: 'active',
  disclosure: 'Sponsored · Acme',
  incentive: { kind: 'trial', benefit: '30 days free' },
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...over,
});

const T0 = Date.parse('2026-03-10T12:00:00Z');
const impression = (recId: string, campaignId: string, shownAt = T0) => ({
  kind: 'impression' as const,
  impression: { recId, campaignId, landingUrl: 'https://acme.example/', shownAt, requestId: 'r1', position: 1 },
});
const read = (recId: string, campaignId: string, at = T0 + 1000) => ({ kind: 'read' as const, recId, campaignId, at });

describe('SQLite campaign store', () => {
  it('round-trips a campaign, lists live ones, pauses, replaces and deletes', async () => {
    const { campaigns } = open().stores;
    await campaigns.insert(record('cmp_a'));
    await campaigns.insert(record('cmp_b', { createdAt: '2026-03-02T00:00:00.000Z', incentive: null, dailyCapMicros: 500 }));
    expect(await campaigns.get('cmp_a')).toEqual(record('cmp_a'));
    expect((await campaigns.list()).map((c) => c.id)).toEqual(['cmp_a', 'cmp_b']);
    expect((await campaigns.setStatus('cmp_a', 'paused', '2026-03-03T00:00:00.000Z'))?.status).toBe('paused');
    expect(await campaigns.replace(record('cmp_b', { title: 'New title', updatedAt: '2026-03-04T00:00:00.000Z' }))).toBe(true);
    expect((await campaigns.get('cmp_b'))?.title).toBe('New title');
    expect(await campaigns.delete('cmp_a', '2026-03-05T00:00:00.000Z')).toBe(true);
    expect(await campaigns.delete('cmp_a', '2026-03-05T00:00:00.000Z')).toBe(false);
    expect(await campaigns.get('cmp_a')).toBeUndefined();
    expect(await campaigns.setStatus('cmp_a', 'active', 'x')).toBeUndefined();
    expect(await campaigns.replace(record('cmp_zz'))).toBe(false);
    expect((await campaigns.list()).map((c) => c.id)).toEqual(['cmp_b']);
  });

  it('moves its version on every change, also when another connection writes', async () => {
    const { stores, dir } = open();
    const other = open(dir).stores;
    const v0 = await stores.campaigns.version();
    await other.campaigns.insert(record('cmp_a'));
    const v1 = await stores.campaigns.version();
    expect(v1).toBeGreaterThan(v0);
    await other.campaigns.setStatus('cmp_a', 'paused', 'x');
    expect(await stores.campaigns.version()).toBeGreaterThan(v1);
    // Events never move it: the keyword index must not reload on traffic.
    const v2 = await stores.campaigns.version();
    await stores.events.write([impression('rec_1', 'cmp_a'), read('rec_1', 'cmp_a')]);
    expect(await stores.campaigns.version()).toBe(v2);
  });
});

describe('SQLite ad event store', () => {
  it('charges the first read of a rec_id only', async () => {
    const { campaigns, events } = open().stores;
    await campaigns.insert(record('cmp_a'));
    const charges = await events.write([impression('rec_1', 'cmp_a'), read('rec_1', 'cmp_a'), read('rec_1', 'cmp_a')]);
    expect(charges).toEqual([{ campaignId: 'cmp_a', day: '2026-03-10', micros: 300 }]);
    expect(await events.write([read('rec_1', 'cmp_a', T0 + 5000)])).toEqual([]);
    expect(await events.spend('2026-03-10')).toEqual([{ campaignId: 'cmp_a', totalMicros: 300, dayMicros: 300 }]);
    const [stats] = await events.stats();
    expect(stats).toEqual({ campaignId: 'cmp_a', impressions: 1, reads: 1, clicks: 0, spendMicros: 300 });
  });

  it('caps a charge at the budget left and at the day cap left; never overspends', async () => {
    const { campaigns, events } = open().stores;
    await campaigns.insert(record('cmp_a', { bidMicros: 300, budgetMicros: 1000, dailyCapMicros: 500 }));
    const day1 = [1, 2, 3].flatMap((i) => [impression(`rec_${i}`, 'cmp_a'), read(`rec_${i}`, 'cmp_a')]);
    expect((await events.write(day1)).map((c) => c.micros)).toEqual([300, 200]);
    const nextDay = T0 + 86_400_000;
    const day2 = [4, 5, 6].flatMap((i) => [impression(`rec_${i}`, 'cmp_a', nextDay), read(`rec_${i}`, 'cmp_a', nextDay)]);
    expect((await events.write(day2)).map((c) => c.micros)).toEqual([300, 200]);
    expect(await events.spend('2026-03-11')).toEqual([{ campaignId: 'cmp_a', totalMicros: 1000, dayMicros: 500 }]);
  });

  it('stores clicks (the first follow of a rec_id only), finds impressions and counts from a given day', async () => {
    const { campaigns, events } = open().stores;
    await campaigns.insert(record('cmp_a'));
    const day2 = T0 + 86_400_000;
    await events.write([
      impression('rec_1', 'cmp_a'),
      { kind: 'click', recId: 'rec_1', campaignId: 'cmp_a', at: T0 },
      impression('rec_2', 'cmp_a', day2),
      read('rec_2', 'cmp_a', day2),
      { kind: 'click', recId: 'rec_2', campaignId: 'cmp_a', at: day2 },
      { kind: 'click', recId: 'rec_2', campaignId: 'cmp_a', at: day2 },
    ]);
    expect(await events.findImpression('rec_2')).toEqual({ recId: 'rec_2', campaignId: 'cmp_a', landingUrl: 'https://acme.example/', shownAt: day2, requestId: 'r1', position: 1 });
    expect(await events.findImpression('rec_nope')).toBeUndefined();
    // rec_2 was followed twice: one unique click (repeats are neither stored nor counted).
    expect(await events.stats()).toEqual([{ campaignId: 'cmp_a', impressions: 2, reads: 1, clicks: 2, spendMicros: 300 }]);
    expect(await events.stats('2026-03-11')).toEqual([{ campaignId: 'cmp_a', impressions: 1, reads: 1, clicks: 1, spendMicros: 300 }]);
    expect(await events.stats('2026-03-12')).toEqual([]);
  });

  it('still charges a read of an impression shown before its campaign was deleted', async () => {
    const { campaigns, events } = open().stores;
    await campaigns.insert(record('cmp_a'));
    await events.write([impression('rec_1', 'cmp_a')]);
    await campaigns.delete('cmp_a', 'x');
    expect(await events.write([read('rec_1', 'cmp_a')])).toEqual([{ campaignId: 'cmp_a', day: '2026-03-10', micros: 300 }]);
  });
});

describe('SQLite ad event store, large batches', () => {
  it('counts each impression once across multi-row inserts: repeats within a batch and across batches are not counted', async () => {
    const { stores } = open();
    await stores.campaigns.insert(record('cmp_a'));
    await stores.campaigns.insert(record('cmp_b'));
    const first = Array.from({ length: 130 }, (_, n) => impression(`rec_${String(n).padStart(4, '0')}`, n % 2 ? 'cmp_a' : 'cmp_b'));
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
