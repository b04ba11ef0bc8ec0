import { describe, expect, it } from 'vitest';
import { projectBudget } from '../../src/admin/budget-projection.ts';

const usage = (used: number, total: number) => ({
  period: '2026-11',
  total,
  used,
  left: Math.max(0, total - used),
  resetsAt: new Date('2026-12-01T00:00:00Z'),
});

describe('budget projection', () => {
  it("carries the month's pace to its end", () => {
    // Half of November (30 days) gone, 300 used: 600 by the end.
    const p = projectBudget(usage(300, 1000), new Date('2026-11-16T00:00:00Z'));
    expect(p.projectedUsed).toBe(600);
    expect(p.exhaustedAt).toBeUndefined();
  });

  it('says when the budget runs out at that pace', () => {
    // 15 days for 600 units: 40 a day; 400 left last 10 more days.
    const p = projectBudget(usage(600, 1000), new Date('2026-11-16T00:00:00Z'));
    expect(p.projectedUsed).toBe(1200);
    expect(p.exhaustedAt?.toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('is exhausted now when nothing is left, and lasts the month when nothing is used', () => {
    const now = new Date('2026-11-10T12:00:00Z');
    expect(projectBudget(usage(1000, 1000), now).exhaustedAt).toEqual(now);
    expect(projectBudget(usage(0, 1000), now)).toEqual({ projectedUsed: 0, exhaustedAt: undefined });
  });
});
