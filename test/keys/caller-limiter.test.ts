import { describe, expect, it } from 'vitest';
import { callerRateLimiter } from '../../src/keys/caller-limiter.ts';
import { createMemoryRateLimiter } from '../../src/store/memory/memory-rate-limiter.ts';

describe('callerRateLimiter', () => {
  it('draws keys from the keys’ limiter and anonymous callers from theirs', async () => {
    const keyed = createMemoryRateLimiter(100);
    const anonymous = createMemoryRateLimiter(2);
    const limiter = callerRateLimiter(keyed, anonymous);
    expect((await limiter.consume('key_a', 1)).limit).toBe(100);
    expect((await limiter.consume('anon:10.0.0.1', 1)).limit).toBe(2);
    expect((await limiter.peek('anon:10.0.0.1')).remaining).toBe(1);
    expect((await keyed.peek('anon:10.0.0.1')).remaining).toBe(100);
  });

  it('is the keys’ limiter itself while the tier is off', () => {
    const keyed = createMemoryRateLimiter(100);
    expect(callerRateLimiter(keyed, undefined)).toBe(keyed);
  });
});
