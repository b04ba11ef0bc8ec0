import type { BudgetStore } from '../ports.ts';

/**
 * The search budget in process memory: the reference BudgetStore. Each call runs without
 * awaiting, so a check and its add can never interleave with another call's.
 */
export function createMemoryBudgetStore(): BudgetStore {
  const usedBy = new Map<string, number>();
  const used = (period: string) => usedBy.get(period) ?? 0;
  return {
    async consume(period, cost, limit) {
      const after = used(period) + cost;
      if (after > limit) return { allowed: false, used: used(period) };
      usedBy.set(period, after);
      return { allowed: true, used: after };
    },
    async refund(period, cost) {
      // As SQLite: a period never consumed stays absent; usage never goes below zero.
      const u = usedBy.get(period);
      if (u !== undefined) usedBy.set(period, Math.max(u - cost, 0));
    },
    async used(period) {
      return used(period);
    },
  };
}
