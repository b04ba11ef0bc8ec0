import { afterAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { BudgetStore } from '../../../src/store/ports.ts';
import { newTag } from './contract-fixtures.ts';

/**
 * The BudgetStore contract. `make` gives a store (fresh, or one shared by every test: tests
 * use periods of their own); `cleanup` runs once after the suite.
 */
export function budgetStoreContract(
  backend: string,
  make: () => Promise<BudgetStore>,
  cleanup?: () => Promise<void>,
): void {
  describe(`BudgetStore contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('consumes up to the limit exactly, per period, and refunds', async () => {
      const s = await make();
      const t = newTag();
      expect(await s.consume(`2026-11_${t}`, 2, 5)).toEqual({ allowed: true, used: 2 });
      expect(await s.consume(`2026-11_${t}`, 3, 5)).toEqual({ allowed: true, used: 5 });
      expect(await s.consume(`2026-11_${t}`, 1, 5)).toEqual({ allowed: false, used: 5 });
      expect(await s.consume(`2026-12_${t}`, 1, 5)).toEqual({ allowed: true, used: 1 });
      await s.refund(`2026-11_${t}`, 2);
      expect(await s.used(`2026-11_${t}`)).toBe(3);
      expect(await s.used(`2027-01_${t}`)).toBe(0);
    });

    it('refuses a cost above the limit without taking any of it, in a new period too', async () => {
      const s = await make();
      const t = newTag();
      expect(await s.consume(`new_${t}`, 6, 5)).toEqual({ allowed: false, used: 0 });
      expect(await s.used(`new_${t}`)).toBe(0);
      expect(await s.consume(`p_${t}`, 3, 5)).toEqual({ allowed: true, used: 3 });
      expect(await s.consume(`p_${t}`, 3, 5)).toEqual({ allowed: false, used: 3 });
      expect(await s.consume(`p_${t}`, 2, 5)).toEqual({ allowed: true, used: 5 });
    });

    it('never refunds below zero, and a refund of a period never used leaves it at zero', async () => {
      const s = await make();
      const t = newTag();
      await s.consume(`p_${t}`, 2, 10);
      await s.refund(`p_${t}`, 5);
      expect(await s.used(`p_${t}`)).toBe(0);
      await s.refund(`never_${t}`, 3);
      expect(await s.used(`never_${t}`)).toBe(0);
      expect(await s.consume(`never_${t}`, 1, 1)).toEqual({ allowed: true, used: 1 });
    });

    it('counts each period name apart, any text: the anonymous share as `anonymous:<month>` beside `<month>`', async () => {
      // src/search/anonymous-budget.ts keeps the anonymous tier's share in this store under
      // its own period names, so every replica on the store draws on one share.
      const s = await make();
      const t = newTag();
      expect(await s.consume(`anonymous:2026-11_${t}`, 3, 3)).toEqual({ allowed: true, used: 3 });
      expect(await s.consume(`anonymous:2026-11_${t}`, 1, 3)).toEqual({ allowed: false, used: 3 });
      expect(await s.used(`2026-11_${t}`)).toBe(0);
      expect(await s.consume(`2026-11_${t}`, 5, 5)).toEqual({ allowed: true, used: 5 });
      await s.refund(`anonymous:2026-11_${t}`, 1);
      expect(await s.used(`anonymous:2026-11_${t}`)).toBe(2);
      expect(await s.used(`2026-11_${t}`)).toBe(5);
    });

    it('never overshoots under concurrent consumers', async () => {
      const s = await make();
      const t = newTag();
      const results = await Promise.all(Array.from({ length: 50 }, () => s.consume(`p_${t}`, 1, 20)));
      expect(results.filter((r) => r.allowed)).toHaveLength(20);
      expect(await s.used(`p_${t}`)).toBe(20);
      // Each allowed call saw its own unit added: the usages it reports are 1..20, once each.
      expect(
        results
          .filter((r) => r.allowed)
          .map((r) => r.used)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('never overshoots with concurrent consumers of mixed costs, and strands no unit; racing refunds all count', async () => {
      const s = await make();
      const t = newTag();
      const costs = Array.from({ length: 40 }, (_, i) => 1 + (i % 3));
      const results = await Promise.all(costs.map((c) => s.consume(`p_${t}`, c, 25)));
      const taken = costs.reduce((sum, c, i) => sum + (defined(results[i], `result ${i}`).allowed ? c : 0), 0);
      expect(taken).toBeLessThanOrEqual(25);
      // Some calls are refused (79 units asked); a refused call found fewer units left than its
      // cost (3 at most), so no more than 2 units may stay unused.
      expect(taken).toBeGreaterThanOrEqual(23);
      expect(await s.used(`p_${t}`)).toBe(taken);
      await Promise.all([s.refund(`p_${t}`, 1), s.refund(`p_${t}`, 2)]);
      expect(await s.used(`p_${t}`)).toBe(taken - 3);
    });
  });
}
