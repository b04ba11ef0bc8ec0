import { isAnonymousCaller } from '../domain/anonymous-caller.ts';
import type { Usage } from '../schemas/usage.ts';
import type { RateLimitState } from '../store/ports.ts';
import { SEARCH_COST, type SearchBudget } from './search-budget.ts';
import type { RequestContext } from './search-service.ts';

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/**
 * GET /v1/usage: the caller's rate limit (read by the auth step without taking a token, so
 * the body and the RateLimit-* headers agree) and the month's budget. Charges nothing. An
 * anonymous caller (the anonymous tier) is told its own bucket and the anonymous share, what
 * it may spend: the share's total and use, and as left the lesser of the share's and the
 * budget's.
 */
export function createUsageReport(budget: Pick<SearchBudget, 'usage'>, anonymousBudget?: Pick<SearchBudget, 'usage'>) {
  const budgetOf = async (caller: string | undefined) => {
    const all = await budget.usage();
    if (anonymousBudget === undefined || !isAnonymousCaller(caller)) return all;
    const share = await anonymousBudget.usage();
    return { ...share, left: Math.min(share.left, all.left) };
  };
  return {
    async run(rate: RateLimitState, ctx: RequestContext): Promise<Usage> {
      const b = await budgetOf(ctx.caller);
      return {
        request_id: ctx.requestId,
        rate_limit: {
          limit_per_minute: rate.limit,
          remaining: rate.remaining,
          reset_seconds: seconds(rate.resetMs),
          retry_after_seconds: seconds(rate.retryAfterMs),
        },
        budget: {
          period: b.period,
          units_total: b.total,
          units_used: b.used,
          units_left: b.left,
          resets_at: b.resetsAt.toISOString(),
          search_cost: { basic: SEARCH_COST.basic, advanced: SEARCH_COST.advanced },
        },
      };
    },
  };
}

export type UsageReport = ReturnType<typeof createUsageReport>;
