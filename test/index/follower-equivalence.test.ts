import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusLines, rng } from '../../bench/make-corpus.ts';
import { openFollowerIndex, type FollowerIndex } from '../../src/index/follower-index.ts';
import { checkDocuments } from '../../src/index/index-document.ts';
import { openLocalIndex, type IndexDocument, type LocalIndex } from '../../src/index/local-index.ts';
import { migrate } from '../../src/store/postgres/migrate.ts';
import { createPostgresIndexStore } from '../../src/store/postgres/pg-index-store.ts';
import { testSchema } from '../helpers/postgres.ts';
import { expectSameRanking, randomSearch } from './ranker/ranking-checks.ts';
import { defined } from '../helpers/defined.ts';
import { search, useTempIndexes } from './temp-index.ts';

const db = testSchema();
const t = useTempIndexes();

/**
 * PostgreSQL mode against embedded mode on the same documents: the same ranker over the
 * same rows (same ids, same order), so hits are equal field for field (url, order, score,
 * snippet); and equal in ranking to FTS5's bm25() (the SQL path) as the embedded ranker is.
 */
describe.skipIf(!db)('PostgreSQL mode ranks as embedded mode', () => {
  let pg: FollowerIndex;
  let embedded: LocalIndex;
  let fts: LocalIndex;
  let docs: IndexDocument[];
  let words: string[];

  beforeAll(async () => {
    await migrate(db!.pool, db!.schema);
    pg = await openFollowerIndex(createPostgresIndexStore(db!.pool));
    const file = join(t.dir(), 'index.db');
    embedded = openLocalIndex(file, { cacheSize: 0 });
    fts = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
    docs = [...corpusLines({ docs: 1500, seed: 11 })].map((l) => JSON.parse(l) as IndexDocument);
    for (let i = 0; i < docs.length; i += 500) {
      embedded.upsert(docs.slice(i, i + 500));
      await pg.upsert(docs.slice(i, i + 500));
    }
    expect(embedded.syncRanker()).toBe(true);
    words = docs.slice(0, 60).flatMap((r) => `${r.title} ${r.content.slice(0, 300)}`.toLowerCase().split(/\s+/));
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
    embedded?.close();
    fts?.close();
    await db?.drop();
  });

  it('gives identical hits for 300 random searches (words, phrases, filters, pages, full text)', () => {
    const rand = rng(5);
    let nonEmpty = 0;
    for (let i = 0; i < 300; i++) {
      const q = { ...randomSearch(words, rand), withText: rand() < 0.2 };
      const hits = pg.search(q);
      if (hits.length > 0) nonEmpty++;
      expect(hits, JSON.stringify(q)).toEqual(embedded.search(q));
      expectSameRanking(hits, fts.search(q), JSON.stringify(q));
    }
    expect(nonEmpty).toBeGreaterThan(200);
    expect(pg.rankerStatus()).toEqual({ state: 'ready', documents: 1500 });
  });

  it('still ranks as embedded mode after replacements, deletions and a source replaced', async () => {
    const rand = rng(9);
    const edited = docs
      .slice(0, 200)
      .map((d, i) => ({ ...d, content: `${defined(docs[(i * 37) % docs.length], 'a document').content} rewritten` }));
    const gone = docs.slice(300, 400).map((d) => new URL(d.url).href);
    const starter = docs.slice(1000, 1050).map((d) => ({ ...d, url: `${d.url}#starter` }));
    embedded.upsert(edited);
    await pg.upsert(edited);
    embedded.remove(gone);
    await pg.remove(gone);
    const rows = checkDocuments(starter);
    embedded.replaceSource('starter', rows);
    await pg.replaceSource('starter', rows);
    expect(pg.rankerStatus().documents).toBe(embedded.count());
    for (let i = 0; i < 150; i++) {
      const q = randomSearch(words, rand);
      // Ids differ once PostgreSQL has handed out numbers for conflicting rows, so equal
      // scores may come in another order: compared as rankings, ties either way.
      expectSameRanking(pg.search(q), embedded.search(q), JSON.stringify(q));
    }
    const first = defined(starter[0], 'a starter document');
    expect(pg.search(search(first.title)).map((h) => h.url)).toContain(first.url);
  });
});
