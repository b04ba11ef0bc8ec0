import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../src/store/ports.ts';
import { campaignRecord, click, impression, read, T0 } from '../contract/contract-fixtures.ts';
import { migrate } from '../../../src/store/postgres/migrate.ts';
import { createPostgresAdEventStore } from '../../../src/store/postgres/pg-ad-event-store.ts';
import { createPostgresCampaignStore } from '../../../src/store/postgres/pg-campaign-store.ts';
import { testSchema } from '../../helpers/postgres.ts';

const db = testSchema();

/** The contracts' campaign, with a code incentive: its code must round-trip too. */
const record = (id: string, over: Partial<CampaignRecord> = {}): CampaignRecord =>
  campaignRecord(id, { incentive: { kind: 'code', code: 'SAVE10', benefit: '10% off' }, ...over });

let n = 0;
/** A campaign id of its own per test: every test shares the schema. */
const fresh = (): string => `cmp_${++n}_${Math.random().toString(36).slice(2, 8)}`;

describe.skipIf(!db)('PostgreSQL campaign and ad event stores', () => {
  beforeAll(() => migrate(db!.pool, db!.schema));
  afterAll(() => db?.drop());
  const campaigns = () => createPostgresCampaignStore(db!.pool);
  const events = () => createPostgresAdEventStore(db!.pool);

  it('round-trips a campaign, lists live ones oldest first, pauses, replaces and deletes', async () => {
    const c = campaigns();
    const [x, y] = ['cmp_list_b', 'cmp_list_a'];
    await c.insert(record(x));
    await c.insert(
      record(y, { createdAt: '2026-03-02T00:00:00.000Z', incentive: null, dailyCapMicros: 5_000_000_000 }),
    );
    expect(await c.get(x)).toEqual(record(x));
    expect((await c.get(y))?.dailyCapMicros).toBe(5_000_000_000);
    expect((await c.list()).map((r) => r.id)).toEqual([x, y]);
    const paused = await c.setStatus(x, 'paused', '2026-03-03T00:00:00.000Z');
    expect(paused).toEqual(record(x, { status: 'paused', updatedAt: '2026-03-03T00:00:00.000Z' }));
    expect(
      await c.replace(
        record(y, {
          title: 'New title',
          keywords: ['a', 'b'],
          updatedAt: '2026-03-04T00:00:00.000Z',
          createdAt: 'ignored',
        }),
      ),
    ).toBe(true);
    expect(await c.get(y)).toMatchObject({
      title: 'New title',
      keywords: ['a', 'b'],
      createdAt: '2026-03-02T00:00:00.000Z',
      updatedAt: '2026-03-04T00:00:00.000Z',
    });
    expect(await c.delete(x, '2026-03-05T00:00:00.000Z')).toBe(true);
    expect(await c.delete(x, '2026-03-05T00:00:00.000Z')).toBe(false);
    expect(await c.get(x)).toBeUndefined();
    expect(await c.setStatus(x, 'active', 'x')).toBeUndefined();
    expect(await c.replace(record('cmp_zz'))).toBe(false);
    expect((await c.list()).map((r) => r.id)).toEqual([y]);
  });

  it('moves its version on every change, also when another pool writes; never on events', async () => {
    const mine = campaigns();
    const other = createPostgresCampaignStore(db!.another(2));
    const id = fresh();
    const v0 = await mine.version();
    await other.insert(record(id));
    const v1 = await mine.version();
    expect(v1).toBeGreaterThan(v0);
    await other.setStatus(id, 'paused', 'x');
    const v2 = await mine.version();
    expect(v2).toBeGreaterThan(v1);
    await events().write([impression(`${id}_r`, id), read(`${id}_r`, id)]);
    expect(await mine.version()).toBe(v2);
  });

  it('charges the first read of a rec_id only', async () => {
    const id = fresh();
    await campaigns().insert(record(id));
    const e = events();
    const charges = await e.write([impression(`${id}_1`, id), read(`${id}_1`, id), read(`${id}_1`, id)]);
    expect(charges).toEqual([{ campaignId: id, day: '2026-03-10', micros: 300 }]);
    expect(await e.write([read(`${id}_1`, id, T0 + 5000)])).toEqual([]);
    expect((await e.spend('2026-03-10')).find((s) => s.campaignId === id)).toEqual({
      campaignId: id,
      totalMicros: 300,
      dayMicros: 300,
    });
    expect((await e.stats()).find((s) => s.campaignId === id)).toEqual({
      campaignId: id,
      impressions: 1,
      reads: 1,
      clicks: 0,
      spendMicros: 300,
    });
    const { rows } = await db!.pool.query(
      'SELECT kind, charge_micros::int AS c FROM events WHERE rec_id = $1 ORDER BY id',
      [`${id}_1`],
    );
    expect(rows).toEqual([
      { kind: 'read', c: 300 },
      { kind: 'read', c: 0 },
      { kind: 'read', c: 0 },
    ]);
  });

  it('caps a charge at the budget left and at the day cap left; never overspends', async () => {
    const id = fresh();
    await campaigns().insert(record(id, { bidMicros: 300, budgetMicros: 1000, dailyCapMicros: 500 }));
    const e = events();
    const day1 = [1, 2, 3].flatMap((i) => [impression(`${id}_${i}`, id), read(`${id}_${i}`, id)]);
    expect((await e.write(day1)).map((c) => c.micros)).toEqual([300, 200]);
    const nextDay = T0 + 86_400_000;
    const day2 = [4, 5, 6].flatMap((i) => [impression(`${id}_${i}`, id, nextDay), read(`${id}_${i}`, id, nextDay)]);
    expect((await e.write(day2)).map((c) => c.micros)).toEqual([300, 200]);
    expect((await e.spend('2026-03-11')).find((s) => s.campaignId === id)).toEqual({
      campaignId: id,
      totalMicros: 1000,
      dayMicros: 500,
    });
  });

  it('stores the first click of a rec_id only, finds impressions, counts from a given day, ignores unknown rec_ids', async () => {
    const id = fresh();
    await campaigns().insert(record(id));
    const e = events();
    const day2 = T0 + 86_400_000;
    await e.write([
      impression(`${id}_1`, id),
      click(`${id}_1`, id, T0),
      impression(`${id}_2`, id, day2),
      read(`${id}_2`, id, day2),
      click(`${id}_2`, id, day2),
      click(`${id}_2`, id, day2),
      read(`${id}_unknown`, id, day2),
      click(`${id}_unknown`, id, day2),
    ]);
    expect(await e.findImpression(`${id}_2`)).toEqual({
      recId: `${id}_2`,
      campaignId: id,
      landingUrl: 'https://acme.example/',
      shownAt: day2,
      requestId: 'r1',
      position: 1,
    });
    expect(await e.findImpression('rec_nope')).toBeUndefined();
    const mine = async (since?: string) => (await e.stats(since)).filter((s) => s.campaignId === id);
    expect(await mine()).toEqual([{ campaignId: id, impressions: 2, reads: 1, clicks: 2, spendMicros: 300 }]);
    expect(await mine('2026-03-11')).toEqual([
      { campaignId: id, impressions: 1, reads: 1, clicks: 1, spendMicros: 300 },
    ]);
    expect(await mine('2026-03-12')).toEqual([]);
  });

  it('still charges a read of an impression shown before its campaign was deleted; a campaign it never knew is free', async () => {
    const id = fresh();
    await campaigns().insert(record(id));
    const e = events();
    await e.write([impression(`${id}_1`, id), impression(`${id}_2`, 'cmp_never')]);
    await campaigns().delete(id, 'x');
    expect(await e.write([read(`${id}_1`, id), read(`${id}_2`, 'cmp_never')])).toEqual([
      { campaignId: id, day: '2026-03-10', micros: 300 },
    ]);
    expect((await e.stats()).find((s) => s.campaignId === 'cmp_never')).toMatchObject({ reads: 1, spendMicros: 0 });
  });

  it('counts each impression once: repeats within a batch and across batches are not counted', async () => {
    const [x, y] = [fresh(), fresh()];
    await campaigns().insert(record(x));
    await campaigns().insert(record(y));
    const e = events();
    const first = Array.from({ length: 130 }, (_, i) =>
      impression(`${x}_${String(i).padStart(4, '0')}`, i % 2 ? x : y),
    );
    const more = Array.from({ length: 30 }, (_, i) => impression(`${x}_new_${i}`, x));
    await e.write(first);
    await e.write([...first, ...more, ...more.slice(0, 5)]);
    const stats = new Map((await e.stats()).map((s) => [s.campaignId, s.impressions]));
    expect(stats.get(x)).toBe(65 + 30);
    expect(stats.get(y)).toBe(65);
  });
});
