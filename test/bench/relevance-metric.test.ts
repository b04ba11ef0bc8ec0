import { describe, expect, it } from 'vitest';
import { ndcgAt, parseQrels, recallAt, topOverlap } from '../../bench/relevance-metric.ts';

describe('relevance metrics (BEIR)', () => {
  it('reads qrels by query, header skipped', () => {
    const q = parseQrels('query-id\tcorpus-id\tscore\n1\td1\t1\n1\td2\t2\n3\td9\t1\n');
    expect([...q.keys()]).toEqual(['1', '3']);
    expect(q.get('1')).toEqual(
      new Map([
        ['d1', 1],
        ['d2', 2],
      ]),
    );
  });

  it('nDCG@k: graded gains, log2 discount from position 1, over the ideal order of the judged documents', () => {
    const judged = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(ndcgAt(10, ['b', 'a', 'x'], judged)).toBe(1);
    // a at 1, b at 3: (1 + 2/log2(4)) / (2 + 1/log2(3))
    expect(ndcgAt(10, ['a', 'x', 'b'], judged)).toBeCloseTo((1 + 2 / 2) / (2 + 1 / Math.log2(3)), 12);
    // Cut at k: b at position 3 counts at k = 3, not at k = 2.
    expect(ndcgAt(2, ['a', 'x', 'b'], judged)).toBeCloseTo(1 / (2 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(10, ['x', 'y'], judged)).toBe(0);
    expect(ndcgAt(10, ['a'], new Map())).toBe(0);
  });

  it('recall@k: the share of the relevant documents in the first k', () => {
    const judged = new Map([
      ['a', 1],
      ['b', 1],
      ['c', 0],
    ]);
    expect(recallAt(20, ['c', 'a'], judged)).toBe(0.5);
    expect(recallAt(1, ['c', 'a', 'b'], judged)).toBe(0);
    expect(recallAt(3, ['c', 'a', 'b'], judged)).toBe(1);
  });

  it('top overlap: the share of one top k found in the other, order aside', () => {
    expect(topOverlap(3, ['a', 'b', 'c'], ['c', 'b', 'a'])).toBe(1);
    expect(topOverlap(2, ['a', 'b', 'c'], ['b', 'c', 'a'])).toBe(0.5);
    expect(topOverlap(3, ['a'], ['a', 'b'])).toBe(0.5);
    expect(topOverlap(3, [], [])).toBe(1);
  });
});
