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

/** Most units one lease takes from the store at a time. */
export const MAX_LEASE = 64;
/** A lease takes at most this share of what is left of the month, so the tail is exact. */
const LEASE_SHARE = 16;

/**
 * The service-wide monthly search budget. Fetch is never charged.
 *
 * Units are leased from the store in small blocks and spent in memory: one store write
 * (an fsync'd SQLite commit, a network round trip on a shared store) per block instead of
 * per search, which was the largest single cost of a search. A block is at most
 * MAX_LEASE units and at most 1/16 of what the month has left, so the last units of a
 * month are taken one search at a time and the 503 comes exactly when the budget is
 * spent. Refunds go back to the lease; `close()` returns the unspent units to the store.
 * A process that dies without closing leaves its unspent block counted as used: the
 * budget errs on the side of the sponsor, by at most MAX_LEASE units.
 */
export function createSearchBudget(store: BudgetStore, monthlyUnits: number, now: () => Date = () => new Date()) {
  const leases = new Map<string, number>();
  let block = 1;

  /** Gives the unspent units of other periods back to the store (a month has turned). */
  async function returnOthers(period: string): Promise<void> {
    for (const [p, units] of leases) {
      if (p === period) continue;
      leases.delete(p);
      if (units > 0) await store.refund(p, units);
    }
  }

  /** Takes `units` plus a block from the store into the lease; false when even `units` does not fit. */
  async function lease(period: string, units: number): Promise<boolean> {
    let taken = Math.max(units, block);
    let r = await store.consume(period, taken, monthlyUnits);
    if (!r.allowed && taken > units) {
      taken = units;
      r = await store.consume(period, taken, monthlyUnits);
    }
    if (!r.allowed) return false;
    leases.set(period, (leases.get(period) ?? 0) + taken);
    block = Math.max(1, Math.min(MAX_LEASE, Math.floor((monthlyUnits - r.used) / LEASE_SHARE)));
    return true;
  }

  return {
    async charge(depth: SearchDepth): Promise<BudgetCharge> {
      const at = now();
      const period = budgetPeriod(at);
      const units = SEARCH_COST[depth];
      let allowed = true;
      if ((leases.get(period) ?? 0) < units) {
        try {
          if (leases.size > 0) await returnOthers(period);
          allowed = await lease(period, units);
        } catch (e) {
          throw new DomainError('unavailable', 'the quota store is unavailable; retry shortly', { cause: e, retryAfterS: 5 });
        }
      }
      if (!allowed) {
        const reset = periodReset(at);
        throw new DomainError(
          'unavailable',
          `the monthly free search budget (${monthlyUnits} units) is exhausted; it resets at ${reset.toISOString()}`,
          { retryAfterS: Math.max(1, Math.ceil((reset.getTime() - at.getTime()) / 1000)) },
        );
      }
      leases.set(period, (leases.get(period) ?? 0) - units);
      return { period, units };
    },
    /** A search that was not served (every provider failed) gives its units back. */
    async refund(charge: BudgetCharge): Promise<void> {
      if (leases.has(charge.period)) leases.set(charge.period, leases.get(charge.period)! + charge.units);
      else await store.refund(charge.period, charge.units);
    },
    /** Units spent in the period: the store's count less this process's unspent lease. */
    async used(period: string): Promise<number> {
      return (await store.used(period)) - (leases.get(period) ?? 0);
    },
    /**
     * Returns the unspent lease to the store (on shutdown). Best effort: a store that is
     * already gone keeps the block counted, as after a crash.
     */
    async close(): Promise<void> {
      await returnOthers('').catch(() => undefined);
    },
  };
}

export type SearchBudget = ReturnType<typeof createSearchBudget>;
