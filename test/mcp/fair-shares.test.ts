import { describe, expect, it } from 'vitest';
import { fairShares } from '../../src/mcp/fair-shares.ts';

describe('fairShares', () => {
  it('gives small needs what they need and splits the rest evenly among the large ones', () => {
    expect(fairShares([100, 5000, 10, 5000], 1000)).toEqual([100, 445, 10, 445]);
  });

  it('gives every need in full when the total covers them, and never more than the total', () => {
    expect(fairShares([3, 4, 5], 100)).toEqual([3, 4, 5]);
    const shares = fairShares([7, 7, 7], 10);
    expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    expect(fairShares([5, 5], -3)).toEqual([0, 0]);
    expect(fairShares([], 10)).toEqual([]);
  });
});
