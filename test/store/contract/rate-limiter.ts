import { afterAll, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../../src/store/ports.ts';
import { newTag } from './contract-fixtures.ts';

export interface RateLimiterContractOptions {
  /**
   * Moves the clock of every limiter `make` gave on by `ms`. Only a backend whose clock the
   * test controls (the memory limiter) gives it; the cases that wait for a refill run only
   * then. The others run on any clock, real or fake, and allow for the few milliseconds a
   * round trip takes.
   */
  advance?: (ms: number) => void | Promise<void>;
  /** Runs once after the suite. */
  cleanup?: () => Promise<void>;
}

/**
 * The RateLimiter contract. `make(perMinute)` gives a limiter of that rate; limiters may
 * share their state (one Redis or database), since every test uses keys of its own.
 */
export function rateLimiterContract(
  backend: string,
  make: (perMinute: number) => Promise<RateLimiter>,
  options: RateLimiterContractOptions = {},
): void {
  const { advance, cleanup } = options;
  describe(`RateLimiter contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('allows a burst of the limit, then refuses with the wait until one request is allowed', async () => {
      const r = await make(6); // one request every 10 s
      const k = newTag();
      const decisions = [];
      for (let i = 0; i < 6; i++) decisions.push(await r.consume(k, 1));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, true]);
      expect(decisions.map((d) => d.remaining)).toEqual([5, 4, 3, 2, 1, 0]);
      expect(decisions.every((d) => d.limit === 6 && d.retryAfterMs === 0)).toBe(true);
      const refused = await r.consume(k, 1);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 6 });
      expect(refused.retryAfterMs).toBeGreaterThan(9_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(10_000);
      expect(refused.resetMs).toBeGreaterThan(59_000);
      expect(refused.resetMs).toBeLessThanOrEqual(60_000);
      expect((await r.consume(`${k}:other`, 1)).allowed).toBe(true);
    });

    it('takes a cost of several requests at once, or refuses it whole', async () => {
      const r = await make(6);
      const k = newTag();
      expect(await r.consume(k, 3)).toMatchObject({ allowed: true, remaining: 3 });
      expect(await r.consume(k, 4)).toMatchObject({ allowed: false, remaining: 0 });
      expect(await r.consume(k, 3)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await r.consume(k, 1)).allowed).toBe(false);
    });

    it('peek reports the bucket without taking from it, agreeing with consume', async () => {
      const r = await make(6);
      const k = newTag();
      expect(await r.peek(k)).toEqual({ limit: 6, remaining: 6, resetMs: 0, retryAfterMs: 0 });
      for (let i = 0; i < 20; i++) await r.peek(k);
      expect((await r.consume(k, 1)).remaining).toBe(5); // the peeks took nothing
      for (let i = 0; i < 4; i++) await r.consume(k, 1);
      const last = await r.consume(k, 1);
      const empty = await r.peek(k);
      expect(empty).toMatchObject({ limit: 6, remaining: 0 });
      expect(empty.resetMs).toBeLessThanOrEqual(last.resetMs);
      expect(empty.resetMs).toBeGreaterThan(last.resetMs - 1_000);
      expect(empty.retryAfterMs).toBeGreaterThan(9_000);
      expect(empty.retryAfterMs).toBeLessThanOrEqual(10_000);
      // A refused consume names the same wait as the peek before it (less the time between).
      const refused = await r.consume(k, 1);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(empty.retryAfterMs);
      expect(refused.retryAfterMs).toBeGreaterThan(empty.retryAfterMs - 1_000);
      expect((await r.peek(k)).remaining).toBe(0);
    });

    it('allows exactly the limit of 100 concurrent requests of one key', async () => {
      const r = await make(20);
      const k = newTag();
      const decisions = await Promise.all(Array.from({ length: 100 }, () => r.consume(k, 1)));
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(20);
      expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfterMs > 0)).toBe(true);
      expect((await r.peek(k)).remaining).toBe(0);
    });

    it.skipIf(!advance)('allows one more request once its wait has passed', async () => {
      const r = await make(6);
      const k = newTag();
      for (let i = 0; i < 6; i++) await r.consume(k, 1);
      const refused = await r.consume(k, 1);
      await advance!(refused.retryAfterMs - 1);
      expect((await r.consume(k, 1)).allowed).toBe(false);
      await advance!(1);
      expect(await r.consume(k, 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it.skipIf(!advance)('refills fully after a minute', async () => {
      const r = await make(3);
      const k = newTag();
      for (let i = 0; i < 3; i++) await r.consume(k, 1);
      await advance!(60_000);
      expect((await r.consume(k, 1)).remaining).toBe(2);
      await advance!(60_000);
      expect(await r.peek(k)).toEqual({ limit: 3, remaining: 3, resetMs: 0, retryAfterMs: 0 });
    });

    it.skipIf(!advance)('peek follows the clock exactly as consume would', async () => {
      const r = await make(6); // one request every 10 s
      const k = newTag();
      for (let i = 0; i < 5; i++) await r.consume(k, 1);
      const last = await r.consume(k, 1);
      expect(await r.peek(k)).toEqual({ limit: 6, remaining: 0, resetMs: last.resetMs, retryAfterMs: 10_000 });
      const refused = await r.consume(k, 1);
      expect((await r.peek(k)).retryAfterMs).toBe(refused.retryAfterMs);
      await advance!(5_000);
      expect(await r.peek(k)).toMatchObject({
        remaining: 0,
        retryAfterMs: refused.retryAfterMs - 5_000,
        resetMs: refused.resetMs - 5_000,
      });
      await advance!(5_000);
      expect(await r.peek(k)).toMatchObject({ remaining: 1, retryAfterMs: 0 });
      expect((await r.consume(k, 1)).allowed).toBe(true);
      expect((await r.peek(k)).remaining).toBe(0);
      await advance!(60_000);
      expect(await r.peek(k)).toEqual({ limit: 6, remaining: 6, resetMs: 0, retryAfterMs: 0 });
    });
  });
}
