import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defined } from '../helpers/defined.ts';
import { createSearchBudget, MAX_LEASE } from '../../src/search/search-budget.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { createStores } from '../../src/store/create-stores.ts';
import type { BudgetStore } from '../../src/store/ports.ts';

/** A real SQLite budget store, with its consume calls counted. */
function countedStore() {
  const dataDir = mkdtempSync(join(tmpdir(), 'scout-budget-'));
  const stores = createStores({ dataDir, rateLimitRpm: 60 });
  let writes = 0;
  const store: BudgetStore = {
    consume: (p, c, l) => {
      writes++;
      return stores.budget.consume(p, c, l);
    },
    refund: (p, c) => stores.budget.refund(p, c),
    used: (p) => stores.budget.used(p),
  };
  return { store, raw: stores.budget, writes: () => writes, close: () => stores.close(), dataDir };
}

const NOV = () => new Date('2026-11-21T12:00:00Z');

/**
 * Polls `check` every 10 ms for at most 20 s: what it waits for (a lease given back within
 * 500 ms of idling) happens in well under a second, or never; the bound is far from both so
 * a busy machine does not fail it.
 */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A network store: each write lands at once, its answer `delayMs` later. */
function slowly(store: BudgetStore, delayMs: number): BudgetStore {
  return {
    consume: async (p, c, l) => {
      const r = await store.consume(p, c, l);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return r;
    },
    refund: (p, c) => store.refund(p, c),
    used: (p) => store.used(p),
  };
}

describe('search budget leases', () => {
  it('spends leased blocks in memory: a store write per block, not per search', async () => {
    const s = countedStore();
    const budget = createSearchBudget(s.store, 10_000, NOV);
    for (let i = 0; i < 1000; i++) await budget.charge('basic');
    expect(await budget.used('2026-11')).toBe(1000);
    expect(s.writes()).toBeLessThan(1000 / MAX_LEASE + 5);
    // The store holds at most one unspent block beyond what was spent.
    expect((await s.raw.used('2026-11')) - 1000).toBeLessThanOrEqual(MAX_LEASE);
    await budget.close();
    expect(await s.raw.used('2026-11')).toBe(1000);
    await s.close();
  });

  it('shared (replicas on one store): leases blocks too, and gives an idle lease back within idleReturnMs', async () => {
    const s = countedStore();
    const budget = createSearchBudget(s.store, 10_000, NOV, { shared: true, idleReturnMs: 40 });
    for (let i = 0; i < 100; i++) await budget.charge('basic');
    expect(s.writes()).toBeLessThan(100 / 4);
    expect(await s.raw.used('2026-11')).toBeGreaterThan(100);
    await budget.refund({ period: '2026-11', units: 1 });
    // Idle: what this replica held unspent (the refund included) is the store's again.
    await waitUntil(async () => (await s.raw.used('2026-11')) === 99);
    expect(await budget.used('2026-11')).toBe(99);
    await budget.close();
    expect(await s.raw.used('2026-11')).toBe(99);
    await s.close();
  });

  it('shared: takes the next block in the background before the lease runs out, but never within the last 128 units', async () => {
    const s = countedStore();
    const budget = createSearchBudget(s.store, 10_000, NOV, { shared: true, idleReturnMs: 60_000 });
    await budget.charge('basic'); // the first lease: 1 unit
    await budget.charge('basic'); // a block of 64: 63 left
    const before = s.writes();
    for (let i = 0; i < 47; i++) await budget.charge('basic'); // 16 left: a quarter of the block
    await new Promise((r) => setTimeout(r, 20));
    // A block was taken although no search lacked units, and none waited for it.
    expect(s.writes()).toBe(before + 1);
    expect((await s.raw.used('2026-11')) - 49).toBe(16 + 64);
    expect(await budget.used('2026-11')).toBe(49);
    await budget.close();

    const tail = countedStore();
    const near = createSearchBudget(tail.store, 200, NOV, { shared: true, idleReturnMs: 60_000 });
    for (let i = 0; i < 120; i++) await near.charge('basic');
    await new Promise((r) => setTimeout(r, 20));
    // With under 128 units left, blocks are under 8: nothing is taken ahead of need, so at
    // most the current block is held back from the other replicas.
    const held = (await tail.raw.used('2026-11')) - 120;
    expect(held).toBeLessThan(8);
    await near.close();
    expect(await tail.raw.used('2026-11')).toBe(120);
    await s.close();
    await tail.close();
  });

  it('shared: two replicas on one store serve exactly the budget, the tail one search at a time, none stranded', async () => {
    const s = countedStore();
    const replicas = [0, 1].map(() => createSearchBudget(s.store, 200, NOV, { shared: true, idleReturnMs: 40 }));
    let served = 0;
    let refusedInARow = 0;
    for (let i = 0; refusedInARow < 2; i++) {
      try {
        await defined(replicas[i % 2], `replica ${i % 2}`).charge(i % 3 === 0 ? 'advanced' : 'basic');
        served += i % 3 === 0 ? 2 : 1;
        refusedInARow = 0;
      } catch (e) {
        expect((e as DomainError).message).toMatch(/budget \(200 units\) is exhausted/);
        refusedInARow++;
        // A refusal while the other replica holds units: they come back once it is idle.
        await new Promise((r) => setTimeout(r, 120));
        // Fill the last unit with a basic search when an advanced one no longer fits.
        if (served === 199) {
          await defined(replicas[0], 'replica 0').charge('basic');
          served++;
        }
      }
    }
    expect(served).toBe(200);
    expect(await s.raw.used('2026-11')).toBe(200);
    for (const r of replicas) await r.close();
    await s.close();
  });

  it('refuses exactly at the limit, with advanced searches costing 2 and refunds given back', async () => {
    const s = countedStore();
    const budget = createSearchBudget(s.store, 100, NOV);
    let spent = 0;
    for (let i = 0; spent + 2 <= 100; i++) {
      const depth = i % 3 === 0 ? 'advanced' : 'basic';
      if (spent + (depth === 'advanced' ? 2 : 1) > 100) break;
      const c = await budget.charge(depth);
      spent += c.units;
    }
    while (spent < 100) spent += (await budget.charge('basic')).units;
    await expect(budget.charge('basic')).rejects.toThrow(/monthly free search budget \(100 units\) is exhausted/);
    // A refunded search makes room for exactly its units again.
    await budget.refund({ period: '2026-11', units: 2 });
    await budget.charge('advanced');
    await expect(budget.charge('basic')).rejects.toBeInstanceOf(DomainError);
    expect(await budget.used('2026-11')).toBe(100);
    await budget.close();
    expect(await s.raw.used('2026-11')).toBe(100);
    await s.close();
  });

  it('a restart keeps the count: the unspent lease is returned on close, and a crash over-counts by at most a block', async () => {
    const s = countedStore();
    const first = createSearchBudget(s.store, 10_000, NOV);
    for (let i = 0; i < 10; i++) await first.charge('basic');
    // No close(): the process "died" holding its block.
    const second = createSearchBudget(s.store, 10_000, NOV);
    const used = await second.used('2026-11');
    expect(used).toBeGreaterThanOrEqual(10);
    expect(used).toBeLessThanOrEqual(10 + MAX_LEASE);
    await s.close();
  });

  it('gives the old month its unspent units back when the month turns', async () => {
    const s = countedStore();
    let now = new Date('2026-11-30T23:59:59Z');
    const budget = createSearchBudget(s.store, 10_000, () => now);
    for (let i = 0; i < 5; i++) await budget.charge('basic');
    now = new Date('2026-12-01T00:00:01Z');
    await budget.charge('basic');
    expect(await s.raw.used('2026-11')).toBe(5);
    expect(await budget.used('2026-12')).toBe(1);
    await budget.close();
    expect(await s.raw.used('2026-12')).toBe(1);
    await s.close();
  });

  it('never passes the budget under concurrent searches, and counts exactly what was served', async () => {
    for (const delayMs of [0, 2]) {
      const s = countedStore();
      const budget = createSearchBudget(slowly(s.store, delayMs), 100, NOV);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 120 }, (_, i) => budget.charge(i % 4 === 0 ? 'advanced' : 'basic')),
      );
      const served = outcomes.reduce((n, o) => n + (o.status === 'fulfilled' ? o.value.units : 0), 0);
      expect(served).toBeLessThanOrEqual(100);
      expect(served).toBeGreaterThanOrEqual(99); // an advanced search may not fit the last unit
      expect(await budget.used('2026-11')).toBe(served);
      await budget.close();
      expect(await s.raw.used('2026-11')).toBe(served);
      await s.close();
    }
  });

  it('usage: after N searches used is N, not what the store holds with the unspent lease', async () => {
    const s = countedStore();
    const budget = createSearchBudget(s.store, 10_000, NOV);
    expect(await budget.usage()).toEqual({
      period: '2026-11',
      total: 10_000,
      used: 0,
      left: 10_000,
      resetsAt: new Date('2026-12-01T00:00:00Z'),
    });
    for (let i = 0; i < 7; i++) await budget.charge('basic');
    await budget.charge('advanced');
    expect(await s.raw.used('2026-11')).toBeGreaterThan(9); // a block is leased ahead
    expect(await budget.usage()).toMatchObject({ used: 9, left: 9_991 });
    await budget.refund({ period: '2026-11', units: 2 });
    expect(await budget.usage()).toMatchObject({ used: 7, left: 9_993 });
    await s.close();
  });

  it('usage read while a block is on its way from a slow store does not count the block as used', async () => {
    const s = countedStore();
    const budget = createSearchBudget(slowly(s.store, 20), 10_000, NOV);
    await budget.charge('basic'); // the first lease is a single unit; the next takes a block
    const charging = budget.charge('basic');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await s.raw.used('2026-11')).toBeGreaterThan(2); // the block is in the store already
    expect((await budget.usage()).used).toBe(2);
    await charging;
    await s.close();
  });

  it('usage is 503 (unavailable) when the store cannot be read', async () => {
    const broken: BudgetStore = {
      consume: async () => ({ allowed: true, used: 1 }),
      refund: async () => undefined,
      used: async () => Promise.reject(new Error('disk gone')),
    };
    await expect(createSearchBudget(broken, 100, NOV).usage()).rejects.toMatchObject({
      kind: 'unavailable',
      retryAfterS: 5,
    });
  });

  it('is 503 (unavailable), not a crash, when the store fails', async () => {
    const broken: BudgetStore = {
      consume: async () => Promise.reject(new Error('disk gone')),
      refund: async () => undefined,
      used: async () => 0,
    };
    const budget = createSearchBudget(broken, 100, NOV);
    await expect(budget.charge('basic')).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'the quota store is unavailable; retry shortly',
    });
  });
});
