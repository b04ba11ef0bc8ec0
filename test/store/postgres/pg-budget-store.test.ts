import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import { migrate } from '../../../src/store/postgres/migrate.ts';
import { createPostgresBudgetStore } from '../../../src/store/postgres/pg-budget-store.ts';
import { testSchema } from '../../helpers/postgres.ts';

const db = testSchema();

describe.skipIf(!db)('PostgreSQL budget store', () => {
  beforeAll(() => migrate(db!.pool, db!.schema));
  afterAll(() => db?.drop());

  it('consumes up to the limit exactly, per period, refuses a cost above the limit on a new period, and refunds', async () => {
    const s = createPostgresBudgetStore(db!.pool);
    expect(await s.consume('2026-10', 6, 5)).toEqual({ allowed: false, used: 0 });
    expect(await s.used('2026-10')).toBe(0);
    expect(await s.consume('2026-11', 2, 5)).toEqual({ allowed: true, used: 2 });
    expect(await s.consume('2026-11', 3, 5)).toEqual({ allowed: true, used: 5 });
    expect(await s.consume('2026-11', 1, 5)).toEqual({ allowed: false, used: 5 });
    await s.refund('2026-11', 2);
    expect(await s.used('2026-11')).toBe(3);
    await s.refund('2026-11', 10);
    expect(await s.used('2026-11')).toBe(0);
    await s.refund('2027-01', 1);
    expect(await s.used('2027-01')).toBe(0);
  });

  it('is exact across replicas: 3 pools, 90 concurrent consumers, limit 40', async () => {
    const stores = [db!.pool, db!.another(5), db!.another(5)].map(createPostgresBudgetStore);
    const results = await Promise.all(
      Array.from({ length: 90 }, (_, i) => defined(stores[i % 3], `store ${i % 3}`).consume('p', 1, 40)),
    );
    const allowed = results.filter((r) => r.allowed);
    // Each allowed consume saw its own total: 1, 2, ... 40, no unit served twice or lost.
    expect(allowed.map((r) => r.used).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(results.filter((r) => !r.allowed).every((r) => r.used === 40)).toBe(true);
    expect(await defined(stores[1], 'store 1').used('p')).toBe(40);
  });

  it('counts past 32 bits', async () => {
    const s = createPostgresBudgetStore(db!.pool);
    expect(await s.consume('big', 5_000_000_000, 9_000_000_000)).toEqual({ allowed: true, used: 5_000_000_000 });
  });
});
