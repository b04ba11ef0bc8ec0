import type { BudgetUsage } from '../search/search-budget.ts';

export interface BudgetProjection {
  /** Units the month will have used at its end, at the pace so far. */
  projectedUsed: number;
  /** When the budget runs out at that pace; undefined when it lasts the month. Now when it already has. */
  exhaustedAt: Date | undefined;
}

/**
 * A straight line through the month so far: used / elapsed, carried to the month's end. At
 * the very start of a month the pace rests on little and swings widely; the dashboard shows
 * it beside what is used, which is exact.
 */
export function projectBudget(usage: BudgetUsage, now: Date): BudgetProjection {
  const [year, month] = usage.period.split('-').map(Number) as [number, number];
  const start = Date.UTC(year, month - 1, 1);
  const end = usage.resetsAt.getTime();
  const elapsed = Math.max(1, now.getTime() - start);
  const pace = usage.used / elapsed;
  const projectedUsed = Math.round(usage.used + pace * Math.max(0, end - now.getTime()));
  if (usage.left <= 0) return { projectedUsed, exhaustedAt: now };
  if (projectedUsed <= usage.total || pace === 0) return { projectedUsed, exhaustedAt: undefined };
  return { projectedUsed, exhaustedAt: new Date(now.getTime() + Math.ceil(usage.left / pace)) };
}
