import { afterAll, describe, expect, it } from 'vitest';
import type { AdEvent, SponsoredStores } from '../../../src/store/ports.ts';
import { campaignRecord as record, click, DAY_MS, impression, newTag, read, statsOf, T0 } from './contract-fixtures.ts';

/** Campaigns and events of one backend: reads are priced from that backend's campaigns. */
export type SponsoredPair = Pick<SponsoredStores, 'campaigns' | 'events'>;

const sum = (charges: readonly { micros: number }[]) => charges.reduce((s, c) => s + c.micros, 0);

/**
 * The AdEventStore contract, with the billing rule (src/store/charge-rule.ts) it applies.
 * `make` gives a campaign store and an event store over the same data (fresh, or shared by
 * every test: tests use campaign ids and rec_ids of their own); `cleanup` runs once after
 * the suite.
 */
export function adEventStoreContract(
  backend: string,
  make: () => Promise<SponsoredPair>,
  cleanup?: () => Promise<void>,
): void {
  describe(`AdEventStore contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('charges the first read of a rec_id only', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, rec] = [`cmp_a_${t}`, `rec_1_${t}`];
      await campaigns.insert(record(cmp));
      expect(await events.write([])).toEqual([]);
      const charges = await events.write([impression(rec, cmp), read(rec, cmp), read(rec, cmp)]);
      expect(charges).toEqual([{ campaignId: cmp, day: '2026-03-10', micros: 300 }]);
      expect(await events.write([read(rec, cmp, T0 + 5000)])).toEqual([]);
      expect(statsOf(await events.spend('2026-03-10'), cmp)).toEqual([
        { campaignId: cmp, totalMicros: 300, dayMicros: 300 },
      ]);
      expect(statsOf(await events.spend('2026-03-11'), cmp)).toEqual([
        { campaignId: cmp, totalMicros: 300, dayMicros: 0 },
      ]);
      expect(statsOf(await events.stats(), cmp)).toEqual([
        { campaignId: cmp, impressions: 1, reads: 1, clicks: 0, spendMicros: 300 },
      ]);
    });

    it('caps a charge at the budget left and at the day cap left; never overspends', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const cmp = `cmp_a_${t}`;
      await campaigns.insert(record(cmp, { bidMicros: 300, budgetMicros: 1000, dailyCapMicros: 500 }));
      const day1 = [1, 2, 3].flatMap((i) => [impression(`rec_${i}_${t}`, cmp), read(`rec_${i}_${t}`, cmp)]);
      expect(await events.write(day1)).toEqual([
        { campaignId: cmp, day: '2026-03-10', micros: 300 },
        { campaignId: cmp, day: '2026-03-10', micros: 200 },
      ]);
      const nextDay = T0 + DAY_MS;
      const day2 = [4, 5, 6].flatMap((i) => [
        impression(`rec_${i}_${t}`, cmp, nextDay),
        read(`rec_${i}_${t}`, cmp, nextDay),
      ]);
      expect((await events.write(day2)).map((c) => [c.day, c.micros])).toEqual([
        ['2026-03-11', 300],
        ['2026-03-11', 200],
      ]);
      const day3 = [7, 8].flatMap((i) => [
        impression(`rec_${i}_${t}`, cmp, nextDay + DAY_MS),
        read(`rec_${i}_${t}`, cmp, nextDay + DAY_MS),
      ]);
      expect(await events.write(day3)).toEqual([]); // the budget is spent
      expect(statsOf(await events.spend('2026-03-11'), cmp)).toEqual([
        { campaignId: cmp, totalMicros: 1000, dayMicros: 500 },
      ]);
      // Uncharged first reads still count as reads.
      expect(statsOf(await events.stats(), cmp)).toEqual([
        { campaignId: cmp, impressions: 8, reads: 8, clicks: 0, spendMicros: 1000 },
      ]);
    });

    it('stores clicks (the first follow of a rec_id only), finds impressions and counts from a given day', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, r1, r2] = [`cmp_a_${t}`, `rec_1_${t}`, `rec_2_${t}`];
      await campaigns.insert(record(cmp));
      const day2 = T0 + DAY_MS;
      await events.write([
        impression(r1, cmp),
        click(r1, cmp, T0),
        impression(r2, cmp, day2),
        read(r2, cmp, day2),
        click(r2, cmp, day2),
        click(r2, cmp, day2),
      ]);
      expect(await events.findImpression(r2)).toEqual({
        recId: r2,
        campaignId: cmp,
        landingUrl: 'https://acme.example/',
        shownAt: day2,
        requestId: 'r1',
        position: 1,
      });
      expect(await events.findImpression(`rec_nope_${t}`)).toBeUndefined();
      // r2 was followed twice: one unique click (repeats are neither stored nor counted).
      expect(statsOf(await events.stats(), cmp)).toEqual([
        { campaignId: cmp, impressions: 2, reads: 1, clicks: 2, spendMicros: 300 },
      ]);
      expect(statsOf(await events.stats('2026-03-11'), cmp)).toEqual([
        { campaignId: cmp, impressions: 1, reads: 1, clicks: 1, spendMicros: 300 },
      ]);
      expect(statsOf(await events.stats('2026-03-12'), cmp)).toEqual([]);
      await events.write([click(r2, cmp, day2 + 5000)]);
      expect(statsOf(await events.stats(), cmp)[0]?.clicks).toBe(2);
    });

    it('counts each event on its own UTC day: impressions when shown, reads and clicks when they happen', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, rec] = [`cmp_a_${t}`, `rec_1_${t}`];
      await campaigns.insert(record(cmp));
      const lateDay1 = Date.parse('2026-03-10T23:59:59.999Z');
      await events.write([impression(rec, cmp, lateDay1)]);
      const charges = await events.write([read(rec, cmp, lateDay1 + 1), click(rec, cmp, lateDay1 + 2)]);
      expect(charges).toEqual([{ campaignId: cmp, day: '2026-03-11', micros: 300 }]);
      expect(statsOf(await events.stats('2026-03-11'), cmp)).toEqual([
        { campaignId: cmp, impressions: 0, reads: 1, clicks: 1, spendMicros: 300 },
      ]);
      expect(statsOf(await events.spend('2026-03-10'), cmp)).toEqual([
        { campaignId: cmp, totalMicros: 300, dayMicros: 0 },
      ]);
    });

    it('ignores reads and clicks of unknown rec_ids, and charges nothing for a campaign never stored', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, ghost] = [`cmp_a_${t}`, `cmp_ghost_${t}`];
      await campaigns.insert(record(cmp));
      expect(await events.write([read(`rec_unknown_${t}`, cmp), click(`rec_unknown_${t}`, cmp)])).toEqual([]);
      expect(statsOf(await events.stats(), cmp)).toEqual([]);
      expect(await events.findImpression(`rec_unknown_${t}`)).toBeUndefined();
      expect(await events.write([impression(`rec_g_${t}`, ghost), read(`rec_g_${t}`, ghost)])).toEqual([]);
      expect(statsOf(await events.spend('2026-03-10'), cmp, ghost)).toEqual([]);
    });

    it('still charges a read of an impression shown before its campaign was deleted', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, rec] = [`cmp_a_${t}`, `rec_1_${t}`];
      await campaigns.insert(record(cmp));
      await events.write([impression(rec, cmp)]);
      await campaigns.delete(cmp, '2026-03-10T12:00:00.500Z');
      expect(await events.write([read(rec, cmp)])).toEqual([{ campaignId: cmp, day: '2026-03-10', micros: 300 }]);
      expect(statsOf(await events.spend('2026-03-10'), cmp)).toEqual([
        { campaignId: cmp, totalMicros: 300, dayMicros: 300 },
      ]);
    });

    it('counts repeats once, within a batch and across batches', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [a, b] = [`cmp_a_${t}`, `cmp_b_${t}`];
      await campaigns.insert(record(a, { budgetMicros: 100_000 }));
      await campaigns.insert(record(b, { budgetMicros: 100_000 }));
      const imp = (n: number) => impression(`rec_${n}_${t}`, n % 2 ? a : b);
      const first = Array.from({ length: 20 }, (_, n) => imp(n));
      expect(await events.write([...first, imp(0), imp(1)])).toEqual([]);
      const again: AdEvent[] = [
        ...first,
        imp(20),
        imp(20),
        read(`rec_1_${t}`, a),
        read(`rec_1_${t}`, a),
        read(`rec_2_${t}`, b),
        click(`rec_1_${t}`, a),
        click(`rec_1_${t}`, a),
        read(`rec_2_${t}`, b),
      ];
      expect(await events.write(again)).toEqual([
        { campaignId: a, day: '2026-03-10', micros: 300 },
        { campaignId: b, day: '2026-03-10', micros: 300 },
      ]);
      expect(
        await events.write([read(`rec_1_${t}`, a), click(`rec_1_${t}`, a), impression(`rec_3_${t}`, b, T0 + 999)]),
      ).toEqual([]);
      expect(statsOf(await events.stats(), a, b)).toEqual([
        { campaignId: a, impressions: 10, reads: 1, clicks: 1, spendMicros: 300 },
        { campaignId: b, impressions: 11, reads: 1, clicks: 0, spendMicros: 300 },
      ]);
      // The first impression of a rec_id is the one kept (rec_3 came again, for campaign b).
      expect(await events.findImpression(`rec_3_${t}`)).toMatchObject({ campaignId: a, shownAt: T0 });
    });

    it('never moves the campaign version: the keyword index must not reload on traffic', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, rec] = [`cmp_a_${t}`, `rec_1_${t}`];
      await campaigns.insert(record(cmp));
      const v = await campaigns.version();
      await events.write([impression(rec, cmp), read(rec, cmp), click(rec, cmp)]);
      expect(await campaigns.version()).toBe(v);
    });

    it('charges a rec_id once when two writers resolve its first read at the same moment', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [cmp, r1, r2] = [`cmp_a_${t}`, `rec_1_${t}`, `rec_2_${t}`];
      await campaigns.insert(record(cmp, { budgetMicros: 100_000 }));
      await events.write([impression(r1, cmp)]);
      const racing = await Promise.all([events.write([read(r1, cmp)]), events.write([read(r1, cmp, T0 + 1001)])]);
      expect(racing.flat()).toEqual([{ campaignId: cmp, day: '2026-03-10', micros: 300 }]);
      // Both batches also carry the impression (two replicas that each showed it and saw it read).
      const both = await Promise.all(
        [0, 1].map(() => events.write([impression(r2, cmp), read(r2, cmp), click(r2, cmp)])),
      );
      expect(both.flat()).toEqual([{ campaignId: cmp, day: '2026-03-10', micros: 300 }]);
      expect(statsOf(await events.stats(), cmp)).toEqual([
        { campaignId: cmp, impressions: 2, reads: 2, clicks: 1, spendMicros: 600 },
      ]);
    });

    it('never spends past the budget or the day cap under concurrent first reads', async () => {
      const { campaigns, events } = await make();
      const t = newTag();
      const [byBudget, byCap] = [`cmp_budget_${t}`, `cmp_cap_${t}`];
      await campaigns.insert(record(byBudget, { bidMicros: 300, budgetMicros: 1000 }));
      await campaigns.insert(record(byCap, { bidMicros: 300, budgetMicros: 100_000, dailyCapMicros: 700 }));
      const recs = Array.from({ length: 12 }, (_, n) => [`rec_${n}_${t}`, n % 2 ? byBudget : byCap] as const);
      await events.write(recs.map(([rec, cmp]) => impression(rec, cmp)));
      const charges = (await Promise.all(recs.map(([rec, cmp]) => events.write([read(rec, cmp)])))).flat();
      expect(sum(charges.filter((c) => c.campaignId === byBudget))).toBe(1000);
      expect(sum(charges.filter((c) => c.campaignId === byCap))).toBe(700);
      expect(charges.every((c) => c.micros > 0 && c.micros <= 300)).toBe(true);
      expect(statsOf(await events.spend('2026-03-10'), byBudget, byCap)).toEqual([
        { campaignId: byBudget, totalMicros: 1000, dayMicros: 1000 },
        { campaignId: byCap, totalMicros: 700, dayMicros: 700 },
      ]);
      expect(statsOf(await events.stats(), byBudget, byCap).map((s) => s.reads)).toEqual([6, 6]);
    });
  });
}
