import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { AdEvent, AdEventStore, CampaignRecord, Charge } from '../../../src/store/ports.ts';
import { campaignRecord, click, impression, read } from '../contract/contract-fixtures.ts';
import { migrate } from '../../../src/store/postgres/migrate.ts';
import { createPostgresAdEventStore } from '../../../src/store/postgres/pg-ad-event-store.ts';
import { createPostgresCampaignStore } from '../../../src/store/postgres/pg-campaign-store.ts';
import { testSchema } from '../../helpers/postgres.ts';

/** Three replicas (three pools) writing ad events to one schema at the same moment. */
const db = testSchema();

/** The contracts' campaign with a bid of 100 and a budget of 1,000,000 micros: room for every read charged here. */
const campaign = (id: string, over: Partial<CampaignRecord> = {}): CampaignRecord =>
  campaignRecord(id, {
    keywords: ['shoes'],
    negativeKeywords: [],
    countries: [],
    bidMicros: 100,
    budgetMicros: 1_000_000,
    disclosure: 'Sponsored',
    incentive: null,
    ...over,
  });

const total = (charges: Charge[][]): number => charges.flat().reduce((s, c) => s + c.micros, 0);

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [defined(items[j], `item ${j}`), defined(items[i], `item ${i}`)];
  }
  return items;
}

describe.skipIf(!db)('PostgreSQL ad event store, three replicas at once', () => {
  let replicas: [AdEventStore, AdEventStore, AdEventStore];
  beforeAll(async () => {
    await migrate(db!.pool, db!.schema);
    replicas = [
      createPostgresAdEventStore(db!.pool),
      createPostgresAdEventStore(db!.another()),
      createPostgresAdEventStore(db!.another()),
    ];
  });
  afterAll(() => db?.drop());
  const campaigns = () => createPostgresCampaignStore(db!.pool);
  const spendOf = async (id: string) => (await replicas[0].spend('2026-03-10')).find((s) => s.campaignId === id);

  it('charges a rec_id read on every replica at the same moment exactly once', async () => {
    await campaigns().insert(campaign('cmp_same'));
    const recs = Array.from({ length: 30 }, (_, i) => `rec_same_${i}`);
    await replicas[0].write(recs.map((r) => impression(r, 'cmp_same')));
    const charges = await Promise.all(recs.flatMap((r) => replicas.map((s) => s.write([read(r, 'cmp_same')]))));
    const charged = charges.flat();
    expect(charged).toHaveLength(30);
    expect(total(charges)).toBe(3000);
    expect(await spendOf('cmp_same')).toEqual({ campaignId: 'cmp_same', totalMicros: 3000, dayMicros: 3000 });
    const { rows } = await db!.pool.query(
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE charge_micros > 0)::int AS charged FROM events WHERE campaign_id = 'cmp_same' AND kind = 'read'",
    );
    expect(rows[0]).toEqual({ n: 90, charged: 30 });
    expect((await replicas[1].stats()).find((s) => s.campaignId === 'cmp_same')).toMatchObject({
      impressions: 30,
      reads: 30,
      spendMicros: 3000,
    });
  });

  it('never passes the budget or the day cap with first reads of different rec_ids racing', async () => {
    await campaigns().insert(campaign('cmp_budget', { bidMicros: 300, budgetMicros: 1000 }));
    await campaigns().insert(campaign('cmp_cap', { bidMicros: 300, budgetMicros: 1_000_000, dailyCapMicros: 700 }));
    const recs = Array.from({ length: 40 }, (_, i) => i);
    await replicas[0].write(
      recs.flatMap((i) => [impression(`rec_b_${i}`, 'cmp_budget'), impression(`rec_c_${i}`, 'cmp_cap')]),
    );
    const charges = await Promise.all(
      shuffle(
        recs.flatMap((i) => [
          [read(`rec_b_${i}`, 'cmp_budget')],
          [read(`rec_c_${i}`, 'cmp_cap'), read(`rec_b_${(i + 7) % 40}`, 'cmp_budget')],
        ]),
      ).map((batch, k) => defined(replicas[k % 3], `replica ${k % 3}`).write(batch)),
    );
    const by = (id: string) =>
      charges
        .flat()
        .filter((c) => c.campaignId === id)
        .map((c) => c.micros)
        .sort((a, b) => b - a);
    expect(by('cmp_budget')).toEqual([300, 300, 300, 100]);
    expect(by('cmp_cap')).toEqual([300, 300, 100]);
    expect(await spendOf('cmp_budget')).toMatchObject({ totalMicros: 1000 });
    expect(await spendOf('cmp_cap')).toMatchObject({ totalMicros: 700, dayMicros: 700 });
  });

  it('writes mixed batches over many campaigns in clashing orders without losing or doubling a count', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `cmp_mix_${i}`);
    for (const id of ids) await campaigns().insert(campaign(id, { bidMicros: 1 }));
    const recs = Array.from({ length: 240 }, (_, i) => ({
      recId: `rec_mix_${i}`,
      campaignId: defined(ids[i % ids.length], 'a campaign id'),
    }));
    // Every rec_id is shown, read and clicked by two replicas, in batches of shuffled order.
    const batches: AdEvent[][] = [];
    for (let round = 0; round < 2; round++) {
      const all = shuffle(
        recs.flatMap((r) => [
          impression(r.recId, r.campaignId),
          read(r.recId, r.campaignId),
          click(r.recId, r.campaignId),
        ]),
      );
      for (let k = 0; k < all.length; k += 24) batches.push(all.slice(k, k + 24));
    }
    const charges = await Promise.all(
      shuffle(batches).map((b, k) => defined(replicas[k % 3], `replica ${k % 3}`).write(b)),
    );
    const stats = (await replicas[2].stats()).filter((s) => s.campaignId.startsWith('cmp_mix_'));
    const sum = (f: 'impressions' | 'reads' | 'clicks' | 'spendMicros') => stats.reduce((s, x) => s + x[f], 0);
    expect(sum('impressions')).toBe(240);
    // A read or click that came before its impression in every batch is not counted (as SQLite).
    expect(sum('reads')).toBeLessThanOrEqual(240);
    expect(sum('spendMicros')).toBe(sum('reads'));
    expect(total(charges)).toBe(sum('reads'));
    const { rows } = await db!.pool.query(
      "SELECT count(*) FILTER (WHERE read_at IS NOT NULL)::int AS reads, count(*) FILTER (WHERE clicked_at IS NOT NULL)::int AS clicks FROM impressions WHERE rec_id LIKE 'rec_mix_%'",
    );
    expect(rows[0]).toEqual({ reads: sum('reads'), clicks: sum('clicks') });
  });
});
