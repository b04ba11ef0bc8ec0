import { describe, expect, it } from 'vitest';
import { createMemoryResultCache } from '../../../src/store/memory/memory-result-cache.ts';

describe('createMemoryResultCache', () => {
  it('keeps an entry no longer than its own TTL when one is given (what is left of it in Redis)', async () => {
    // lru-cache reads a start time of 0 as "no TTL": real clocks never say 0.
    let t = 5000;
    const c = createMemoryResultCache({ ttlMs: 60_000, max: 10, now: () => t });
    await c.set('k', 'answer', 100);
    t = 5099;
    expect(await c.get('k')).toBe('answer');
    t = 5101;
    expect(await c.get('k')).toBeUndefined();
    await c.set('k', 'answer', 0);
    expect(await c.get('k')).toBeUndefined();
  });

  it('keeps no value larger than its whole size bound, and leaves the one already kept', async () => {
    const c = createMemoryResultCache({ ttlMs: 60_000, max: 10, maxChars: 1000 });
    await c.set('k', 'small');
    await c.set('k', 'x'.repeat(1000));
    expect(await c.get('k')).toBe('small');
  });
});
