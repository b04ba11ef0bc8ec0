import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createAnonymousBudget } from '../../src/search/anonymous-budget.ts';
import { createSearchBudget } from '../../src/search/search-budget.ts';
import { createSearchService } from '../../src/search/search-service.ts';
import type { SearchBackend } from '../../src/search/search-backend.ts';
import { createStores } from '../../src/store/create-stores.ts';
import { migrate } from '../../src/store/postgres/migrate.ts';
import { createPostgresBudgetStore } from '../../src/store/postgres/pg-budget-store.ts';
import type { BudgetStore } from '../../src/store/ports.ts';
import { testSchema } from '../helpers/postgres.ts';

const NOV = () => new Date('2026-11-21T12:00:00Z');
const ctx = (caller: string) => ({ requestId: 'r', startedAt: performance.now(), caller });

/** Two replicas' shares on one store: together they serve the share exactly, and the service's count is apart. */
async function sharedAcrossReplicas(store: BudgetStore): Promise<void> {
  const replicas = [0, 1].map(() => createAnonymousBudget(store, 30, NOV, { shared: true, idleReturnMs: 20 }));
  let served = 0;
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    try {
      await replicas[i % 2]!.charge('basic');
      served++;
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).reason).toBe('budget_exhausted');
      expect((e as DomainError).message).toMatch(/^the anonymous share of the monthly search budget \(30 units\)/);
      refused++;
    }
  }
  expect([served, refused]).toEqual([30, 10]);
  await Promise.all(replicas.map((r) => r.close()));
  expect(await store.used('anonymous:2026-11')).toBe(30);
  expect(await store.used('2026-11')).toBe(0);
}

describe('the anonymous share', () => {
  it('is one count for every replica of a SQLite store, kept apart from the service’s', async () => {
    const stores = createStores({ dataDir: mkdtempSync(join(tmpdir(), 'scout-anon-')), rateLimitRpm: 60 });
    try {
      await sharedAcrossReplicas(stores.budget);
    } finally {
      await stores.close();
    }
  });

  const db = testSchema();
  describe.skipIf(!db)('on PostgreSQL (SCOUT_TEST_DATABASE_URL)', () => {
    beforeAll(() => migrate(db!.pool, db!.schema));
    afterAll(() => db?.drop());
    it('is one count for replicas on two pools', async () => {
      const a = createPostgresBudgetStore(db!.pool);
      const b = createPostgresBudgetStore(db!.another(2));
      const replicas = [
        createAnonymousBudget(a, 30, NOV, { shared: true }),
        createAnonymousBudget(b, 30, NOV, { shared: true }),
      ];
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.charge('basic')));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
      await Promise.all(replicas.map((r) => r.close()));
      expect(await a.used('anonymous:2026-11')).toBe(30);
      expect(await a.used('2026-11')).toBe(0);
    });
  });
});

describe('an anonymous search', () => {
  const backend = (fail = false): SearchBackend =>
    ({
      async search() {
        if (fail) throw new DomainError('upstream', 'every provider failed');
        return { results: [{ title: 'T', url: 'https://a.example/', content: 'c' }], providers: ['local'] };
      },
    }) as unknown as SearchBackend;

  function setup(total: number, share: number, fail = false) {
    const stores = createStores({ dataDir: mkdtempSync(join(tmpdir(), 'scout-anon-')), rateLimitRpm: 60 });
    const budget = createSearchBudget(stores.budget, total, NOV);
    const anonymousBudget = createAnonymousBudget(stores.budget, share, NOV);
    const search = createSearchService({ backend: backend(fail), budget, anonymousBudget, now: NOV });
    return { stores, budget, anonymousBudget, search };
  }

  it('is charged to the budget and the share; a refusal by either takes nothing from the other', async () => {
    const s = setup(3, 2);
    await s.search.run({ query: 'q' }, ctx('anon:127.0.0.2'));
    await s.search.run({ query: 'q' }, ctx('anon:127.0.0.3'));
    await expect(s.search.run({ query: 'q' }, ctx('anon:127.0.0.2'))).rejects.toThrow(/anonymous share/);
    expect(await s.budget.used('2026-11')).toBe(2);
    // A key spends the rest; then the budget refuses, and the share it was charged goes back.
    await s.search.run({ query: 'q' }, ctx('key_a'));
    await expect(s.search.run({ query: 'q' }, ctx('key_a'))).rejects.toThrow(/monthly free search budget/);
    await s.anonymousBudget.refund({ period: '2026-11', units: 2 });
    await expect(s.search.run({ query: 'q' }, ctx('anon:127.0.0.2'))).rejects.toThrow(/monthly free search budget/);
    expect(await s.anonymousBudget.used('2026-11')).toBe(0);
    await s.stores.close();
  });

  it('that no provider answers gives back both charges', async () => {
    const s = setup(10, 5, true);
    await expect(s.search.run({ query: 'q' }, ctx('anon:127.0.0.2'))).rejects.toThrow(/every provider failed/);
    expect(await s.budget.used('2026-11')).toBe(0);
    expect(await s.anonymousBudget.used('2026-11')).toBe(0);
    await s.stores.close();
  });
});
