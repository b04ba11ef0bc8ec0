import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import { migrate } from '../../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../../src/store/postgres/open-postgres.ts';
import { createPostgresIndexStore } from '../../../src/store/postgres/pg-index-store.ts';
import type { RankerDocument } from '../../../src/store/index-rows.ts';
import { allChanges, applyChanges, row } from '../contract/index-document-store.ts';
import { randomSchemaName } from '../../helpers/postgres.ts';

const URL = process.env.SCOUT_TEST_DATABASE_URL;

/**
 * What the PostgreSQL index store does beyond its contract (test/store/postgres/contracts.test.ts).
 * Every store gets a schema of its own; all dropped in afterAll.
 */
const schemas: { schema: string; pools: pg.Pool[] }[] = [];
async function freshSchema(pools = 1): Promise<pg.Pool[]> {
  const schema = randomSchemaName();
  const opened = Array.from({ length: pools }, () => openPostgres({ url: URL!, schema }));
  schemas.push({ schema, pools: opened });
  await migrate(defined(opened[0], 'a first pool'), schema);
  return opened;
}

describe.skipIf(!URL)('PostgreSQL index document store', () => {
  afterAll(async () => {
    for (const { schema, pools } of schemas) {
      await defined(pools[0], 'a first pool').query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('sees writes made outside Scout (psql) as changes: updates and deletes', async () => {
    const [pool] = await freshSchema();
    const store = createPostgresIndexStore(pool!);
    await store.upsert([row(1), row(2)], 'import');
    const live = applyChanges(await allChanges(store));
    const seq = await store.latestSeq();
    await pool!.query(`UPDATE index_documents SET title = 'Edited' WHERE url = 'https://example.com/doc-1'`);
    await pool!.query(`DELETE FROM index_documents WHERE url = 'https://example.com/doc-2'`);
    applyChanges(await allChanges(store, seq), live);
    expect([...live.values()].map((d) => d.title)).toEqual(['Edited']);
  });

  it('never lets a follower miss a change: concurrent writers commit in sequence order', async () => {
    const [a, b, reader] = await freshSchema(3);
    const writers = [createPostgresIndexStore(a!), createPostgresIndexStore(b!)];
    const follower = createPostgresIndexStore(reader!);
    const live = new Map<number, RankerDocument>();
    let seq = 0;
    let writing = true;
    // A follower reading small pages the whole time: a change committed below a number it
    // has already passed would never reach it.
    const following = (async () => {
      while (writing) {
        const page = await follower.changesSince(seq, 7);
        applyChanges(page, live);
        if (page.length > 0) seq = defined(page.at(-1), 'a last change').seq;
      }
    })();
    await Promise.all(
      writers.map(async (w, k) => {
        for (let i = 0; i < 40; i++) {
          const n = (i * 7 + k * 3) % 50;
          if (i % 5 === 4) await w.remove([`https://example.com/doc-${(n + 11) % 50}`]);
          else
            await w.upsert(
              [row(n, { content: `writer ${k} round ${i}` }), row((n + 1) % 50, { content: `writer ${k} next ${i}` })],
              'import',
            );
        }
      }),
    );
    writing = false;
    await following;
    applyChanges(await allChanges(follower, seq), live);
    const truth = applyChanges(await allChanges(follower));
    expect(new Map([...live].sort((x, y) => x[0] - y[0]))).toEqual(new Map([...truth].sort((x, y) => x[0] - y[0])));
    expect(live.size).toBe(await follower.count());
  });
});
