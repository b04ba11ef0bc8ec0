import type { BudgetStore } from '../store/ports.ts';
import { createSearchBudget } from './search-budget.ts';

/**
 * The anonymous tier's share of the monthly budget (SCOUT_ANONYMOUS_BUDGET_SHARE): a second
 * budget of its own units, counted in the same store as the service's under periods of its
 * own (`anonymous:2026-11` beside `2026-11`), so every replica on a shared store draws on one
 * count. An anonymous search is charged to both (search-service.ts): the share keeps keyless
 * traffic from spending the keyed callers' budget, the service's budget still bounds the sum.
 */
export const ANONYMOUS_PERIOD_PREFIX = 'anonymous:';

/** `store` with every period renamed `<prefix><period>`: a separate count in the same table. */
export function prefixedPeriods(store: BudgetStore, prefix: string): BudgetStore {
  return {
    consume: (period, cost, limit) => store.consume(prefix + period, cost, limit),
    refund: (period, cost) => store.refund(prefix + period, cost),
    used: (period) => store.used(prefix + period),
  };
}

/** The anonymous share as a SearchBudget: leased like the service's, refused with its own message. */
export function createAnonymousBudget(
  store: BudgetStore,
  units: number,
  now: () => Date = () => new Date(),
  options: { shared?: boolean; idleReturnMs?: number } = {},
) {
  return createSearchBudget(prefixedPeriods(store, ANONYMOUS_PERIOD_PREFIX), units, now, {
    ...options,
    exhaustedMessage: (total, reset) =>
      `the anonymous share of the monthly search budget (${total} units) is spent; it resets at ${reset.toISOString()}. ` +
      'Requests with an API key are still served: send one as "Authorization: Bearer <key>"',
  });
}
