import { afterAll, describe, expect, it } from 'vitest';
import type { KeyStore, KeyUsage } from '../../../src/store/ports.ts';
import { ANONYMOUS_USAGE_ID } from '../../../src/domain/anonymous-caller.ts';
import { newTag } from './contract-fixtures.ts';

/** Inserts a key per name, with id `key_<name>_<t>`. */
const insertKeys = async (s: KeyStore, t: string, ...names: string[]): Promise<void> => {
  for (const n of names)
    await s.insert({ id: `key_${n}_${t}`, name: n, hash: `h_${n}_${t}`, createdAt: '2026-01-01T00:00:00.000Z' });
};

/** The usage of this test's keys only (a shared store holds other tests' too). */
const usageOf = async (s: KeyStore, t: string): Promise<KeyUsage[]> =>
  (await s.usage()).filter((u) => u.id.endsWith(`_${t}`));

/**
 * The KeyStore contract. `make` gives a store (fresh, or one shared by every test: tests use
 * ids and hashes of their own); `cleanup` runs once after the suite.
 */
export function keyStoreContract(backend: string, make: () => Promise<KeyStore>, cleanup?: () => Promise<void>): void {
  describe(`KeyStore contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('inserts, finds by hash, lists oldest first, counts and revokes once', async () => {
      const s = await make();
      const t = newTag();
      const before = await s.count();
      await s.insert({ id: `key_b_${t}`, name: 'b', hash: `h2_${t}`, createdAt: '2026-01-02T00:00:00.000Z' });
      await s.insert({ id: `key_a_${t}`, name: 'a', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' });
      await s.insert({ id: `key_c_${t}`, name: 'c', hash: `h3_${t}`, createdAt: '2026-01-02T00:00:00.000Z' });
      expect(await s.count()).toBe(before + 3);
      expect(await s.findByHash(`h1_${t}`)).toEqual({
        id: `key_a_${t}`,
        name: 'a',
        hash: `h1_${t}`,
        createdAt: '2026-01-01T00:00:00.000Z',
        revokedAt: null,
      });
      expect(await s.findByHash(`nope_${t}`)).toBeUndefined();
      const mine = (await s.list()).filter((k) => k.id.endsWith(t)).map((k) => k.id);
      expect(mine).toEqual([`key_a_${t}`, `key_b_${t}`, `key_c_${t}`]);
      expect(await s.revoke(`key_a_${t}`, '2026-02-01T00:00:00.000Z')).toBe(true);
      expect(await s.revoke(`key_a_${t}`, '2026-03-01T00:00:00.000Z')).toBe(false);
      expect(await s.revoke(`key_zzz_${t}`, '2026-03-01T00:00:00.000Z')).toBe(false);
      expect((await s.findByHash(`h1_${t}`))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
      // A revoked key stays listed and counted: it is kept, only refused.
      expect(await s.count()).toBe(before + 3);
      expect((await s.list()).find((k) => k.id === `key_a_${t}`)?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    });

    it('refuses a second key with the same id or the same hash', async () => {
      const s = await make();
      const t = newTag();
      await s.insert({ id: `key_a_${t}`, name: 'a', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' });
      await expect(
        s.insert({ id: `key_a_${t}`, name: 'x', hash: `h9_${t}`, createdAt: '2026-01-01T00:00:00.000Z' }),
      ).rejects.toThrow();
      await expect(
        s.insert({ id: `key_b_${t}`, name: 'x', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' }),
      ).rejects.toThrow();
      expect((await s.findByHash(`h1_${t}`))?.id).toBe(`key_a_${t}`);
      expect(await s.findByHash(`h9_${t}`)).toBeUndefined();
    });

    it('hands out copies: a caller changing a record changes nothing stored', async () => {
      const s = await make();
      const t = newTag();
      await s.insert({ id: `key_a_${t}`, name: 'a', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' });
      const found = await s.findByHash(`h1_${t}`);
      found!.revokedAt = 'tampered';
      const listed = (await s.list()).find((k) => k.id === `key_a_${t}`);
      listed!.name = 'tampered';
      expect(await s.findByHash(`h1_${t}`)).toMatchObject({ name: 'a', revokedAt: null });
    });

    it('revokes a key once when two revocations race', async () => {
      const s = await make();
      const t = newTag();
      await s.insert({ id: `key_a_${t}`, name: 'a', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => s.revoke(`key_a_${t}`, `2026-02-0${i + 1}T00:00:00.000Z`)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const at = (await s.findByHash(`h1_${t}`))?.revokedAt;
      expect(at).toBe(`2026-02-0${results.indexOf(true) + 1}T00:00:00.000Z`);
    });

    it('adds usage to the stored totals and keeps the later last use, in the exact ISO form', async () => {
      const s = await make();
      const t = newTag();
      await insertKeys(s, t, 'a', 'b', 'c');
      expect(await usageOf(s, t)).toEqual([]);
      await s.addUsage([
        { id: `key_b_${t}`, requests: 2, refusals: 1, lastUsedAt: null },
        { id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-01-02T03:04:05.678Z' },
      ]);
      // An earlier time, and no time, keep the stored one; the counts still add.
      await s.addUsage([{ id: `key_a_${t}`, requests: 2, refusals: 1, lastUsedAt: '2026-01-02T03:04:05.677Z' }]);
      await s.addUsage([{ id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: null }]);
      // One id twice in one call: both add, the later time wins whatever their order.
      await s.addUsage([
        { id: `key_b_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-03-01T00:00:00.001Z' },
        { id: `key_b_${t}`, requests: 1, refusals: 1, lastUsedAt: '2026-02-28T23:59:59.999Z' },
      ]);
      await s.addUsage([]);
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 4, refusals: 1, lastUsedAt: '2026-01-02T03:04:05.678Z' },
        { id: `key_b_${t}`, requests: 4, refusals: 2, lastUsedAt: '2026-03-01T00:00:00.001Z' },
      ]);
      // A later time replaces the stored one; a key never named has no usage.
      await s.addUsage([{ id: `key_a_${t}`, requests: 1, refusals: 1, lastUsedAt: '2027-01-01T00:00:00.000Z' }]);
      expect((await usageOf(s, t)).find((u) => u.id === `key_a_${t}`)).toEqual({
        id: `key_a_${t}`,
        requests: 5,
        refusals: 2,
        lastUsedAt: '2027-01-01T00:00:00.000Z',
      });
      expect((await usageOf(s, t)).some((u) => u.id === `key_c_${t}`)).toBe(false);
    });

    it('ignores usage of ids that are not keys, without an error, and writes the rest of the call', async () => {
      const s = await make();
      const t = newTag();
      await insertKeys(s, t, 'a');
      await s.addUsage([
        { id: `key_zzz_${t}`, requests: 5, refusals: 5, lastUsedAt: '2026-01-01T00:00:00.000Z' },
        { id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-01-01T00:00:00.000Z' },
      ]);
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-01-01T00:00:00.000Z' },
      ]);
      // Nor is a row made when the key appears later: the ignored delta is gone.
      await insertKeys(s, t, 'zzz');
      expect((await usageOf(s, t)).map((u) => u.id)).toEqual([`key_a_${t}`]);
    });

    it('keeps the anonymous tier’s aggregate usage although no key has its id', async () => {
      const s = await make();
      // One row for the whole store (a shared store's other tests may add to it): compared by difference.
      const of = async () =>
        (await s.usage()).find((u) => u.id === ANONYMOUS_USAGE_ID) ?? { requests: 0, refusals: 0, lastUsedAt: null };
      const before = await of();
      await s.addUsage([{ id: ANONYMOUS_USAGE_ID, requests: 3, refusals: 1, lastUsedAt: '2999-01-01T00:00:00.000Z' }]);
      await s.addUsage([{ id: ANONYMOUS_USAGE_ID, requests: 2, refusals: 0, lastUsedAt: null }]);
      const after = await of();
      expect(after.requests - before.requests).toBe(5);
      expect(after.refusals - before.refusals).toBe(1);
      expect(after.lastUsedAt).toBe('2999-01-01T00:00:00.000Z');
      // It is usage, never a key: nothing authenticates as it and the key list does not hold it.
      expect((await s.list()).some((k) => k.id === ANONYMOUS_USAGE_ID)).toBe(false);
    });

    it('adds up concurrent calls on the same ids: the totals are the sums', async () => {
      const s = await make();
      const t = newTag();
      await insertKeys(s, t, 'a', 'b');
      // Each call names both keys, in alternating order (a store locking rows in call order could deadlock).
      const calls = Array.from({ length: 8 }, (_, i) => {
        const a = { id: `key_a_${t}`, requests: i + 1, refusals: 1, lastUsedAt: `2026-01-0${i + 1}T00:00:00.000Z` };
        const b = { id: `key_b_${t}`, requests: 10, refusals: 0, lastUsedAt: null };
        return s.addUsage(i % 2 === 0 ? [a, b] : [b, a]);
      });
      await Promise.all(calls);
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 36, refusals: 8, lastUsedAt: '2026-01-08T00:00:00.000Z' },
        { id: `key_b_${t}`, requests: 80, refusals: 0, lastUsedAt: null },
      ]);
    });

    it('keeps the usage of a revoked key, which still takes usage flushed after the revocation', async () => {
      const s = await make();
      const t = newTag();
      await insertKeys(s, t, 'a');
      await s.addUsage([{ id: `key_a_${t}`, requests: 3, refusals: 1, lastUsedAt: '2026-01-01T00:00:00.000Z' }]);
      expect(await s.revoke(`key_a_${t}`, '2026-02-01T00:00:00.000Z')).toBe(true);
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 3, refusals: 1, lastUsedAt: '2026-01-01T00:00:00.000Z' },
      ]);
      await s.addUsage([{ id: `key_a_${t}`, requests: 1, refusals: 1, lastUsedAt: '2026-01-31T23:59:59.999Z' }]);
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 4, refusals: 2, lastUsedAt: '2026-01-31T23:59:59.999Z' },
      ]);
      expect((await s.findByHash(`h_a_${t}`))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    });

    it('hands out usage copies: a caller changing one changes nothing stored', async () => {
      const s = await make();
      const t = newTag();
      await insertKeys(s, t, 'a');
      await s.addUsage([{ id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-01-01T00:00:00.000Z' }]);
      const [u] = await usageOf(s, t);
      u!.requests = 99;
      u!.lastUsedAt = 'tampered';
      expect(await usageOf(s, t)).toEqual([
        { id: `key_a_${t}`, requests: 1, refusals: 0, lastUsedAt: '2026-01-01T00:00:00.000Z' },
      ]);
    });
  });
}
