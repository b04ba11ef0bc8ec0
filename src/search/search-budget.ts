import type { BudgetStore } from '../store/ports.ts';
import { DomainError } from '../domain/errors.ts';
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

/** The month's budget as it stands. */
export interface BudgetUsage {
  /** "2026-11" */
  period: string;
  total: number;
  /** Units of searches served this month. */
  used: number;
  left: number;
  /** First instant of the next month, when `used` starts again from 0. */
  resetsAt: Date;
}

/** Most units one lease takes from the store at a time. */
export const MAX_LEASE = 64;
/** A lease takes at most this share of what is left of the month, so the tail is exact. */
const LEASE_SHARE = 16;
/** Shared stores take the next block ahead of need only while blocks are this large (over 128 units left). */
const PREFETCH_MIN_BLOCK = 8;

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
 *
 * `shared`: other processes spend from the same store (replicas on PostgreSQL). Leases work
 * the same, so a block costs one round trip instead of one per search, and the tail of the
 * month is still taken one search at a time (the 1/16 rule holds for each replica's block).
 * What a replica holds unspent is refused to the others, so a lease not drawn on for
 * `idleReturnMs` (default 500 ms) goes back to the store: units are never stranded in an idle
 * replica for longer than that. A replica killed outright leaves its block counted (at most
 * MAX_LEASE units), as a single process does.
 */
export function createSearchBudget(
  store: BudgetStore,
  monthlyUnits: number,
  now: () => Date = () => new Date(),
  options: {
    shared?: boolean;
    idleReturnMs?: number;
    /** The 503's message once the month's units are spent (default: the service's budget). */
    exhaustedMessage?: (monthlyUnits: number, reset: Date) => string;
  } = {},
) {
  const exhausted =
    options.exhaustedMessage ??
    ((units: number, reset: Date) =>
      `the monthly free search budget (${units} units) is exhausted; it resets at ${reset.toISOString()}`);
  const leases = new Map<string, number>();
  let block = 1;
  /** The next block, once `used` units of the month are taken: within MAX_LEASE and 1/16 of what is left. */
  const nextBlock = (used: number): number =>
    Math.max(1, Math.min(MAX_LEASE, Math.floor((monthlyUnits - used) / LEASE_SHARE)));
  // Everything that touches the store takes its turn. A read of `used` between a block's
  // store write and its arrival in `leases` would count the block as spent; and a search
  // that waited for a block could find it spent by others before it took its own units.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = turn.then(work);
    turn = done.catch(() => undefined);
    return done;
  };

  // Shared stores: when a lease was last drawn on, and the check that returns an idle one.
  const idleReturnMs = options.idleReturnMs ?? 500;
  let lastDrawn = 0;
  let idleCheck: NodeJS.Timeout | undefined;
  function watchIdle(): void {
    if (!options.shared || idleCheck) return;
    idleCheck = setInterval(
      () => {
        if (performance.now() - lastDrawn < idleReturnMs) return;
        clearInterval(idleCheck);
        idleCheck = undefined;
        // Failures keep the lease (counted as used, as after a crash); the next lease retries nothing.
        void inTurn(() => returnOthers('')).catch(() => undefined);
      },
      Math.max(10, Math.floor(idleReturnMs / 2)),
    );
    idleCheck.unref();
  }

  /** Spends `units` of the period's lease; false when the lease holds fewer. */
  function spend(period: string, units: number): boolean {
    const left = leases.get(period) ?? 0;
    if (left < units) return false;
    leases.set(period, left - units);
    lastDrawn = performance.now();
    return true;
  }

  /** Gives the unspent units of other periods back to the store (a month has turned). */
  async function returnOthers(period: string): Promise<void> {
    for (const [p, units] of leases) {
      if (p === period) continue;
      leases.delete(p);
      if (units > 0) await store.refund(p, units);
    }
  }

  /**
   * Takes `units` plus a block from the store, spends `units` of it at once and keeps the
   * rest as the lease; false when even `units` does not fit.
   */
  async function lease(period: string, units: number): Promise<boolean> {
    let taken = Math.max(units, block);
    let r = await store.consume(period, taken, monthlyUnits);
    if (!r.allowed && taken > units) {
      taken = units;
      r = await store.consume(period, taken, monthlyUnits);
    }
    if (!r.allowed) return false;
    leases.set(period, (leases.get(period) ?? 0) + taken - units);
    lastDrawn = performance.now();
    block = nextBlock(r.used);
    if (taken > units) watchIdle();
    return true;
  }

  /**
   * Shared stores: the next block is taken in the background once a quarter of the lease is
   * left, so a search rarely waits on a round trip (its wait held every search behind it:
   * bench/replicas.ts p99). Not near the month's end (blocks under PREFETCH_MIN_BLOCK),
   * where units must stay in the store for the other replicas.
   */
  let refilling = false;
  function refillSoon(period: string): void {
    const low = () => (leases.get(period) ?? 0) * 4 <= block;
    if (!options.shared || refilling || block < PREFETCH_MIN_BLOCK || !low()) return;
    refilling = true;
    void inTurn(async () => {
      if (!low()) return;
      const r = await store.consume(period, block, monthlyUnits);
      if (!r.allowed) return;
      leases.set(period, (leases.get(period) ?? 0) + block);
      block = nextBlock(r.used);
      watchIdle();
    })
      // A failed refill is retried by the next search that needs units, in its own turn.
      .catch(() => undefined)
      .finally(() => {
        refilling = false;
      });
  }

  /** Units served in the period: the store's count less this process's unspent lease. */
  const used = (period: string): Promise<number> =>
    inTurn(async () => Math.max(0, (await store.used(period)) - (leases.get(period) ?? 0)));

  return {
    async charge(depth: SearchDepth): Promise<BudgetCharge> {
      const at = now();
      const period = budgetPeriod(at);
      const units = SEARCH_COST[depth];
      if (spend(period, units)) {
        refillSoon(period);
        return { period, units };
      }
      let allowed: boolean;
      try {
        allowed = await inTurn(async () => {
          // Another search may have taken a block while this one waited for its turn.
          if (spend(period, units)) return true;
          if (leases.size > 0) await returnOthers(period);
          return lease(period, units);
        });
      } catch (e) {
        throw new DomainError('unavailable', 'the quota store is unavailable; retry shortly', {
          cause: e,
          retryAfterS: 5,
        });
      }
      if (!allowed) {
        const reset = periodReset(at);
        throw new DomainError('unavailable', exhausted(monthlyUnits, reset), {
          retryAfterS: Math.max(1, Math.ceil((reset.getTime() - at.getTime()) / 1000)),
          reason: 'budget_exhausted',
        });
      }
      return { period, units };
    },
    /** A search that was not served (every provider failed) gives its units back. */
    async refund(charge: BudgetCharge): Promise<void> {
      if (leases.has(charge.period)) leases.set(charge.period, leases.get(charge.period)! + charge.units);
      else await inTurn(() => store.refund(charge.period, charge.units));
    },
    used,
    /**
     * The current month as GET /v1/usage reports it. `used` counts units served (by every
     * process on the store), never the blocks this process holds unspent.
     */
    async usage(): Promise<BudgetUsage> {
      const at = now();
      const period = budgetPeriod(at);
      let served: number;
      try {
        served = await used(period);
      } catch (e) {
        throw new DomainError('unavailable', 'the quota store is unavailable; retry shortly', {
          cause: e,
          retryAfterS: 5,
        });
      }
      return {
        period,
        total: monthlyUnits,
        used: served,
        left: Math.max(0, monthlyUnits - served),
        resetsAt: periodReset(at),
      };
    },
    /**
     * Returns the unspent lease to the store (on shutdown). Best effort: a store that is
     * already gone keeps the block counted, as after a crash.
     */
    async close(): Promise<void> {
      clearInterval(idleCheck);
      idleCheck = undefined;
      await inTurn(() => returnOthers('')).catch(() => undefined);
    },
  };
}

export type SearchBudget = ReturnType<typeof createSearchBudget>;
