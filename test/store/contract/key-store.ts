import { afterAll, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../../src/store/ports.ts';
import { newTag } from './contract-fixtures.ts';

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
      expect(await s.findByHash(`h1_${t}`)).toEqual({ id: `key_a_${t}`, name: 'a', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null });
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
      await expect(s.insert({ id: `key_a_${t}`, name: 'x', hash: `h9_${t}`, createdAt: '2026-01-01T00:00:00.000Z' })).rejects.toThrow();
      await expect(s.insert({ id: `key_b_${t}`, name: 'x', hash: `h1_${t}`, createdAt: '2026-01-01T00:00:00.000Z' })).rejects.toThrow();
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
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => s.revoke(`key_a_${t}`, `2026-02-0${i + 1}T00:00:00.000Z`)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const at = (await s.findByHash(`h1_${t}`))?.revokedAt;
      expect(at).toBe(`2026-02-0${results.indexOf(true) + 1}T00:00:00.000Z`);
    });
  });
}
