import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignStore } from '../../../src/store/ports.ts';
import { campaignRecord as record, newTag } from './contract-fixtures.ts';

/**
 * The CampaignStore contract. `make` gives a store (fresh, or one shared by every test:
 * tests use campaign ids of their own); `cleanup` runs once after the suite.
 */
export function campaignStoreContract(
  backend: string,
  make: () => Promise<CampaignStore>,
  cleanup?: () => Promise<void>,
): void {
  describe(`CampaignStore contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('round-trips a campaign, lists live ones oldest first, pauses, replaces and deletes', async () => {
      const campaigns = await make();
      const t = newTag();
      const [a, b, c] = [`cmp_a_${t}`, `cmp_b_${t}`, `cmp_c_${t}`];
      const mine = async () => (await campaigns.list()).filter((r) => r.id.endsWith(t)).map((r) => r.id);
      await campaigns.insert(
        record(b, { createdAt: '2026-03-02T00:00:00.000Z', incentive: null, dailyCapMicros: 500 }),
      );
      await campaigns.insert(record(a));
      await campaigns.insert(
        record(c, {
          createdAt: '2026-03-02T00:00:00.000Z',
          incentive: { kind: 'code', code: 'SAVE10', benefit: '10% off' },
        }),
      );
      expect(await campaigns.get(a)).toEqual(record(a));
      expect(await campaigns.get(b)).toEqual(
        record(b, { createdAt: '2026-03-02T00:00:00.000Z', incentive: null, dailyCapMicros: 500 }),
      );
      expect((await campaigns.get(c))?.incentive).toEqual({ kind: 'code', code: 'SAVE10', benefit: '10% off' });
      expect(await mine()).toEqual([a, b, c]);

      expect(await campaigns.setStatus(a, 'paused', '2026-03-03T00:00:00.000Z')).toEqual(
        record(a, { status: 'paused', updatedAt: '2026-03-03T00:00:00.000Z' }),
      );
      expect((await campaigns.get(a))?.status).toBe('paused');
      expect(await mine()).toEqual([a, b, c]); // paused campaigns are live

      // A replacement keeps the id and the creation time, whatever the record says.
      const next = record(b, {
        title: 'New title',
        keywords: ['trail shoes'],
        createdAt: '2030-01-01T00:00:00.000Z',
        updatedAt: '2026-03-04T00:00:00.000Z',
      });
      expect(await campaigns.replace(next)).toBe(true);
      expect(await campaigns.get(b)).toEqual({ ...next, createdAt: '2026-03-02T00:00:00.000Z' });

      expect(await campaigns.delete(a, '2026-03-05T00:00:00.000Z')).toBe(true);
      expect(await campaigns.delete(a, '2026-03-05T00:00:00.000Z')).toBe(false);
      expect(await campaigns.get(a)).toBeUndefined();
      expect(await campaigns.setStatus(a, 'active', '2026-03-06T00:00:00.000Z')).toBeUndefined();
      expect(await campaigns.replace(record(a))).toBe(false);
      expect(await campaigns.replace(record(`cmp_zz_${t}`))).toBe(false);
      expect(await campaigns.get(`cmp_zz_${t}`)).toBeUndefined();
      expect(await campaigns.delete(`cmp_zz_${t}`, '2026-03-05T00:00:00.000Z')).toBe(false);
      expect(await mine()).toEqual([b, c]);
    });

    it('refuses an id already taken, by a deleted campaign too', async () => {
      const campaigns = await make();
      const t = newTag();
      await campaigns.insert(record(`cmp_a_${t}`));
      await expect(campaigns.insert(record(`cmp_a_${t}`, { title: 'Other' }))).rejects.toThrow();
      expect((await campaigns.get(`cmp_a_${t}`))?.title).toBe('Shoes');
      await campaigns.delete(`cmp_a_${t}`, '2026-03-05T00:00:00.000Z');
      await expect(campaigns.insert(record(`cmp_a_${t}`))).rejects.toThrow();
      expect(await campaigns.get(`cmp_a_${t}`)).toBeUndefined();
    });

    it('moves its version on every change, never on reads', async () => {
      const campaigns = await make();
      const t = newTag();
      const id = `cmp_a_${t}`;
      const seen = [await campaigns.version()];
      const moved = async () => {
        const v = await campaigns.version();
        expect(v).not.toBe(seen.at(-1));
        seen.push(v);
      };
      await campaigns.insert(record(id));
      await moved();
      await campaigns.setStatus(id, 'paused', '2026-03-03T00:00:00.000Z');
      await moved();
      await campaigns.replace(record(id, { title: 'New title' }));
      await moved();
      await campaigns.delete(id, '2026-03-05T00:00:00.000Z');
      await moved();
      expect(new Set(seen).size).toBe(seen.length);
      await campaigns.get(id);
      await campaigns.list();
      await campaigns.version();
      expect(await campaigns.version()).toBe(seen.at(-1));
    });

    it('hands out copies: a caller changing a record changes nothing stored', async () => {
      const campaigns = await make();
      const id = `cmp_a_${newTag()}`;
      const original = record(id);
      await campaigns.insert(original);
      original.keywords.push('inserted');
      const got = (await campaigns.get(id))!;
      got.keywords.push('got');
      got.incentive!.benefit = 'changed';
      (await campaigns.list()).find((r) => r.id === id)!.title = 'changed';
      (await campaigns.setStatus(id, 'paused', '2026-03-03T00:00:00.000Z'))!.countries.push('FR');
      expect(await campaigns.get(id)).toEqual(record(id, { status: 'paused', updatedAt: '2026-03-03T00:00:00.000Z' }));
    });

    it('applies racing changes of one campaign whole, and deletes it once', async () => {
      const campaigns = await make();
      const id = `cmp_a_${newTag()}`;
      await campaigns.insert(record(id));
      const titles = Array.from({ length: 8 }, (_, i) => `Title ${i}`);
      await Promise.all(titles.map((title, i) => campaigns.replace(record(id, { title, bidMicros: 100 + i }))));
      const after = (await campaigns.get(id))!;
      // One replacement won entirely: its title and its bid, never a mix of two.
      expect(after.bidMicros).toBe(100 + titles.indexOf(after.title));
      const deletes = await Promise.all(
        Array.from({ length: 5 }, () => campaigns.delete(id, '2026-03-05T00:00:00.000Z')),
      );
      expect(deletes.filter(Boolean)).toHaveLength(1);
    });
  });
}
