import { describe, expect, it } from 'vitest';
import { defined } from '../helpers/defined.ts';
import { createTopDomains } from '../../src/admin/top-domains.ts';

describe('top refused domains (Space-Saving)', () => {
  it('counts exactly while hosts fit, highest first, outcomes kept apart', () => {
    const t = createTopDomains(10);
    for (let i = 0; i < 5; i++) t.add('a.example', 'blocked', i);
    t.add('b.example', 'refused', 10);
    t.add('a.example', 'timeout', 11);
    expect(t.top(5)).toEqual([
      { domain: 'a.example', count: 6, error: 0, outcomes: { blocked: 5, timeout: 1 }, lastAt: 11 },
      { domain: 'b.example', count: 1, error: 0, outcomes: { refused: 1 }, lastAt: 10 },
    ]);
  });

  it('stays bounded and always keeps a host seen more than total/capacity times', () => {
    const capacity = 20;
    const t = createTopDomains(capacity);
    let total = 0;
    // A frequent host among thousands of one-off hosts.
    for (let i = 0; i < 5000; i++) {
      t.add(`once-${i}.example`, 'refused', i);
      total++;
      if (i % 10 === 0) {
        t.add('often.example', 'blocked', i);
        total++;
      }
    }
    const top = t.top(1000);
    expect(top.length).toBe(capacity);
    const often = top.find((d) => d.domain === 'often.example')!;
    expect(often).toBeDefined();
    expect(top[0]?.domain).toBe('often.example');
    // Never under the truth, over by at most its error.
    expect(often.count).toBeGreaterThanOrEqual(500);
    expect(often.count - often.error).toBeLessThanOrEqual(500);
    expect(total / capacity).toBeLessThan(500);
  });

  it('hands out copies', () => {
    const t = createTopDomains(3);
    t.add('a.example', 'refused', 1);
    defined(t.top(1)[0], 'the top domain').outcomes.refused = 99;
    expect(t.top(1)[0]?.outcomes.refused).toBe(1);
  });
});
