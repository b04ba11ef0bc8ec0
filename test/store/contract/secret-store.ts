import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../../src/store/ports.ts';
import { newTag } from './contract-fixtures.ts';

/**
 * The SecretStore contract. `make` opens two handles on one store, as two processes would
 * (two connections or pools; the memory twin, one process, hands the same store twice).
 */
export function secretStoreContract(backend: string, make: () => Promise<[SecretStore, SecretStore]>): void {
  describe(`SecretStore contract: ${backend}`, () => {
    it('makes a secret of the size asked once and hands every process the same bytes', async () => {
      const [a, b] = await make();
      const name = `rec_id_${newTag()}`;
      const all = await Promise.all([a.get(name, 32), b.get(name, 32), a.get(name, 32), b.get(name, 32)]);
      expect(all[0].byteLength).toBe(32);
      for (const v of all) expect(Buffer.from(v).equals(Buffer.from(all[0]))).toBe(true);
      expect(Buffer.from(await b.get(name, 32)).equals(Buffer.from(all[0]))).toBe(true);
    });

    it('keeps secrets of different names apart, and random', async () => {
      const [a] = await make();
      const one = await a.get(`one_${newTag()}`, 32);
      const two = await a.get(`two_${newTag()}`, 32);
      expect(Buffer.from(one).equals(Buffer.from(two))).toBe(false);
      expect(one.some((byte) => byte !== 0)).toBe(true);
    });

    it('hands out copies: changing one does not change the secret', async () => {
      const [a] = await make();
      const name = `copy_${newTag()}`;
      const first = await a.get(name, 16);
      const kept = Buffer.from(first);
      first.fill(0);
      expect(Buffer.from(await a.get(name, 16)).equals(kept)).toBe(true);
    });
  });
}
