import type { BudgetStore } from '../store/ports.ts';
import { DomainError } from './errors.ts';
import type { SearchDepth } from './search-types.ts';

/** Budget units a search costs (docs/api.md "Monthly budget"). */
export const SEARCH_COST: Record<SearchDepth, number> = { basic: 1, advanced: 2 };

/** Calendar month in UTC, e.g. "2026-11". */
export const budgetPeriod = (at: Date): string => at.toISOString().slice(0, 7);

/** First instant of the next UTC month. */
export const periodReset = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

export interface BudgetCharge {
  period: string;
  units: number;
}

/** The service-wide monthly search budget. Fetch is never charged. */
export function createSearchBudget(store: BudgetStore, monthlyUnits: number, now: () => Date = () => new Date()) {
  return {
    async charge(depth: SearchDepth): Promise<BudgetCharge> {
      const at = now();
      const period = budgetPeriod(at);
      const units = SEARCH_COST[depth];
      let result: { allowed: boolean };
      try {
        result = await store.consume(period, units, monthlyUnits);
      } catch (e) {
        throw new DomainError('unavailable', 'the quota store is unavailable; retry shortly', { cause: e, retryAfterS: 5 });
      }
      if (!result.allowed) {
        const reset = periodReset(at);
        throw new DomainError(
          'unavailable',
          `the monthly free search budget (${monthlyUnits} units) is exhausted; it resets at ${reset.toISOString()}`,
          { retryAfterS: Math.max(1, Math.ceil((reset.getTime() - at.getTime()) / 1000)) },
        );
      }
      return { period, units };
    },
    /** A search that was not served (every provider failed) gives its units back. */
    async refund(charge: BudgetCharge): Promise<void> {
      await store.refund(charge.period, charge.units);
    },
  };
}

export type SearchBudget = ReturnType<typeof createSearchBudget>;
