import { describe, expect, it } from 'vitest';
import type { BudgetStore, KeyStore, RateLimiter } from '../../src/store/ports.ts';

/**
 * Contract suites every backend of a port must pass (SQLite and memory).
 */
export function keyStoreContract(name: string, make: () => Promise<KeyStore>) {
  describe(`KeyStore contract: ${name}`, () => {
    it('inserts, finds by hash, lists, counts and revokes once', async () => {
      const s = await make();
      expect(await s.count()).toBe(0);
      await s.insert({ id: 'key_a', name: 'a', hash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' });
      await s.insert({ id: 'key_b', name: 'b', hash: 'h2', createdAt: '2026-01-02T00:00:00.000Z' });
      expect(await s.count()).toBe(2);
      expect(await s.findByHash('h1')).toEqual({ id: 'key_a', name: 'a', hash: 'h1', createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null });
      expect(await s.findByHash('nope')).toBeUndefined();
      expect((await s.list()).map((k) => k.id)).toEqual(['key_a', 'key_b']);
      expect(await s.revoke('key_a', '2026-02-01T00:00:00.000Z')).toBe(true);
      expect(await s.revoke('key_a', '2026-03-01T00:00:00.000Z')).toBe(false);
      expect(await s.revoke('key_zzz', '2026-03-01T00:00:00.000Z')).toBe(false);
      expect((await s.findByHash('h1'))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    });
  });
}

export function budgetStoreContract(name: string, make: () => Promise<BudgetStore>) {
  describe(`BudgetStore contract: ${name}`, () => {
    it('consumes up to the limit exactly, per period, and refunds', async () => {
      const s = await make();
      expect(await s.consume('2026-11', 2, 5)).toEqual({ allowed: true, used: 2 });
      expect(await s.consume('2026-11', 3, 5)).toEqual({ allowed: true, used: 5 });
      expect(await s.consume('2026-11', 1, 5)).toEqual({ allowed: false, used: 5 });
      expect(await s.consume('2026-12', 1, 5)).toEqual({ allowed: true, used: 1 });
      await s.refund('2026-11', 2);
      expect(await s.used('2026-11')).toBe(3);
      expect(await s.used('2027-01')).toBe(0);
    });

    it('never overshoots under concurrent consumers', async () => {
      const s = await make();
      const results = await Promise.all(Array.from({ length: 50 }, () => s.consume('p', 1, 20)));
      expect(results.filter((r) => r.allowed)).toHaveLength(20);
      expect(await s.used('p')).toBe(20);
    });
  });
}

export function rateLimiterContract(name: string, make: (perMinute: number, now: () => number) => Promise<RateLimiter>) {
  describe(`RateLimiter contract: ${name}`, () => {
    it('allows a burst of the limit, then refuses with the wait until one request is allowed', async () => {
      let t = 1_000_000;
      const r = await make(6, () => t); // one request every 10 s
      const decisions = [];
      for (let i = 0; i < 6; i++) decisions.push(await r.consume('k', 1));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, true]);
      expect(decisions.map((d) => d.remaining)).toEqual([5, 4, 3, 2, 1, 0]);
      const refused = await r.consume('k', 1);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 6 });
      expect(refused.retryAfterMs).toBeGreaterThan(9_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(10_000);
      t += 10_000;
      expect((await r.consume('k', 1)).allowed).toBe(true);
      expect((await r.consume('other', 1)).allowed).toBe(true);
    });

    it('refills fully after a minute', async () => {
      let t = 5_000_000;
      const r = await make(3, () => t);
      for (let i = 0; i < 3; i++) await r.consume('k', 1);
      t += 60_000;
      expect((await r.consume('k', 1)).remaining).toBe(2);
    });

    it('peek reports the bucket without taking from it, agreeing with consume', async () => {
      let t = 7_000_000;
      const r = await make(6, () => t); // one request every 10 s
      expect(await r.peek('k')).toEqual({ limit: 6, remaining: 6, resetMs: 0, retryAfterMs: 0 });
      for (let i = 0; i < 100; i++) await r.peek('k');
      const first = await r.consume('k', 1);
      expect(first.remaining).toBe(5); // the peeks took nothing
      for (let i = 0; i < 4; i++) await r.consume('k', 1);
      const last = await r.consume('k', 1);
      const now = await r.peek('k');
      expect(now).toEqual({ limit: 6, remaining: last.remaining, resetMs: last.resetMs, retryAfterMs: 10_000 });
      expect(now.remaining).toBe(0);
      // Empty: peek says how long until one request, as a refused consume would.
      const refused = await r.consume('k', 1);
      expect(refused.allowed).toBe(false);
      expect((await r.peek('k')).retryAfterMs).toBe(refused.retryAfterMs);
      t += 5_000;
      const half = await r.peek('k');
      expect(half).toMatchObject({ remaining: 0, retryAfterMs: refused.retryAfterMs - 5_000, resetMs: refused.resetMs - 5_000 });
      t += 5_000;
      expect(await r.peek('k')).toMatchObject({ remaining: 1, retryAfterMs: 0 });
      expect((await r.consume('k', 1)).allowed).toBe(true);
      expect((await r.peek('k')).remaining).toBe(0);
      t += 60_000;
      expect(await r.peek('k')).toEqual({ limit: 6, remaining: 6, resetMs: 0, retryAfterMs: 0 });
      expect(await r.peek('never-seen')).toEqual({ limit: 6, remaining: 6, resetMs: 0, retryAfterMs: 0 });
    });
  });
}
