import { describe, expect, it } from 'vitest';
import { TopK } from '../../../src/index/ranker/top-k.ts';
import { rng } from '../../../bench/make-corpus.ts';

describe('TopK', () => {
  it('keeps the k best of a stream, best first, ties broken by the lower id', () => {
    const rand = rng(3);
    const pairs = Array.from({ length: 500 }, (_, id) => ({ id, score: Math.floor(rand() * 50), slot: id + 1000 }));
    const top = new TopK(20);
    for (const p of pairs) if (top.admits(p.score)) top.offer(p.score, p.id, p.slot);
    const expected = [...pairs].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 20);
    expect(top.sorted()).toEqual(expected);
  });

  it('keeps fewer than k when fewer come, and starts empty again after clear()', () => {
    const top = new TopK(5);
    top.offer(1, 7, 0);
    top.offer(3, 2, 1);
    expect(top.sorted().map((r) => r.id)).toEqual([2, 7]);
    top.clear();
    expect(top.sorted()).toEqual([]);
    expect(top.admits(-Infinity)).toBe(true);
  });

  it('with k = 0 keeps nothing', () => {
    const top = new TopK(0);
    top.offer(1, 1, 1);
    expect(top.sorted()).toEqual([]);
  });
});
