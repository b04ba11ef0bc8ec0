import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load-config.ts';
import { openFollowerIndex, type FollowerIndex, type FollowerIndexOptions } from '../../src/index/follower-index.ts';
import type { LocalHit, LocalIndexApi } from '../../src/index/local-index.ts';
import { indexStarterCorpus } from '../../src/index/starter-corpus.ts';
import { StoreIndexWriter } from '../../src/index/store-index-writer.ts';
import { migrate } from '../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../src/store/postgres/open-postgres.ts';
import { createPostgresIndexStore } from '../../src/store/postgres/pg-index-store.ts';
import { testSchema } from '../helpers/postgres.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { row } from '../store/contract/index-document-store.ts';
import { defined } from '../helpers/defined.ts';
import { doc, search } from './temp-index.ts';

const db = testSchema();

/** Polls `read` until it returns what `done` accepts, or fails after `ms`; returns the wait. */
// Followers poll every 250 ms, and one that stopped would never see the write: waits are
// 10 s, far above the expected, for the machine may be busy (issue 24).
const PATIENCE_MS = 10_000;

async function within<T>(ms: number, read: () => T, done: (v: T) => boolean): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (done(read())) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(read())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const urls = (hits: LocalHit[]): string[] => hits.map((h) => h.url);

describe.skipIf(!db)('FollowerIndex: documents in PostgreSQL, ranked in memory on every replica', () => {
  const opened: LocalIndexApi[] = [];
  let pools: [pg.Pool, pg.Pool, pg.Pool];
  const open = async (k: number, options: FollowerIndexOptions = {}): Promise<FollowerIndex> => {
    const index = await openFollowerIndex(createPostgresIndexStore(defined(pools[k], `pool ${k}`)), options);
    opened.push(index);
    return index;
  };
  beforeAll(async () => {
    await migrate(db!.pool, db!.schema);
    pools = [db!.pool, db!.another(), db!.another()];
  });
  afterAll(async () => {
    for (const i of opened) await i.close();
    await db?.drop();
  });

  it('an upsert through one replica is found by another soon after (polled every 250 ms) with identical hits', async () => {
    const a = await open(0);
    const b = await open(1);
    const q = search('kingfisher');
    expect(b.search(q)).toEqual([]);
    await a.upsert([
      doc('k1', { content: 'a kingfisher dives' }),
      doc('k2', { title: 'Kingfisher', content: 'blue bird' }),
    ]);
    // The writer sees its own write at once.
    expect(urls(a.search(q)).sort()).toEqual(['https://example.com/doc-k1', 'https://example.com/doc-k2']);
    const waited = await within(
      PATIENCE_MS,
      () => b.search(q).length,
      (n) => n === 2,
    );
    expect(waited).toBeLessThan(PATIENCE_MS);
    expect(b.search(q)).toEqual(a.search(q));
    expect(b.version()).toBe(a.version());
  });

  it('a delete and a replaceSource reach the other replicas too', async () => {
    const a = await open(0);
    const b = await open(1);
    await a.upsert([doc('h1', { content: 'grey herons wade' }), doc('h2', { content: 'herons nest' })]);
    await within(
      PATIENCE_MS,
      () => b.search(search('herons')).length,
      (n) => n === 2,
    );
    expect(await a.remove(['https://example.com/doc-h1'])).toBe(1);
    await within(
      PATIENCE_MS,
      () => urls(b.search(search('herons'))),
      (u) => u.length === 1 && u[0] === 'https://example.com/doc-h2',
    );
    await a.replaceSource('starter', [row('s1', { content: 'storks and herons' })]);
    await within(
      PATIENCE_MS,
      () => b.search(search('storks')).length,
      (n) => n === 1,
    );
    await a.replaceSource('starter', []);
    await within(
      PATIENCE_MS,
      () => b.search(search('storks')).length,
      (n) => n === 0,
    );
    expect(b.search(search('herons'))).toEqual(a.search(search('herons')));
  });

  it('an import by `scout index` (a writer without a ranker) is searchable on every replica soon after', async () => {
    const replicas = [await open(0), await open(1), await open(2)];
    const cli = new StoreIndexWriter(createPostgresIndexStore(pools[2]));
    await cli.upsertRows([row('c1', { content: 'cormorants dry their wings' })]);
    for (const r of replicas)
      await within(
        PATIENCE_MS,
        () => r.search(search('cormorants')).length,
        (n) => n === 1,
      );
    const [first, ...rest] = replicas.map((r) => r.search(search('cormorants wings')));
    for (const hits of rest) expect(hits).toEqual(first);
  });

  it('takes the starter corpus; a second replica starting with the same docs/ changes nothing', async () => {
    const docsDir = join(mkdtempSync(join(tmpdir(), 'scout-starter-')), 'docs');
    mkdirSync(docsDir);
    writeFileSync(
      join(docsDir, 'api.md'),
      '# Scout API\n\nHow to call Scout.\n\n## Rate limits\n\nRequests per minute per key.\n',
    );
    try {
      const a = await open(0);
      const b = await open(1);
      expect(await indexStarterCorpus(a, docsDir)).toBe(2);
      const version = a.version();
      expect(await indexStarterCorpus(b, docsDir)).toBe(2);
      await b.refresh();
      expect(b.version()).toBe(version);
      expect(b.search(search('rate limits'))[0]?.url).toBe('https://scout.invalid/docs/api.md#rate-limits');
    } finally {
      rmSync(dirname(docsDir), { recursive: true, force: true });
    }
  });

  it('loads the whole index at open and says so', async () => {
    const told: { state: string; documents: number; ms?: number }[] = [];
    const index = await open(1, { onRankerChange: (s) => told.push(s) });
    const documents = await index.count();
    expect(index.rankerStatus()).toEqual({ state: 'ready', documents });
    expect(told).toEqual([{ state: 'ready', documents, ms: expect.any(Number) }]);
  });

  it('refuses a memory budget of 0 (no FTS5 to fall back to), and past a small budget answers alike from its spill file', async () => {
    const store = createPostgresIndexStore(pools[0]);
    await expect(openFollowerIndex(store, { memoryBudgetBytes: 0 })).rejects.toThrow(ConfigError);
    await expect(openFollowerIndex(store, { memoryBudgetBytes: 0 })).rejects.toThrow(/^SCOUT_INDEX_MEMORY_MB=0 /);
    const roomy = await open(0);
    const tight = await open(0, { memoryBudgetBytes: 1 });
    await tight.upsert(
      Array.from({ length: 300 }, (_, i) =>
        doc(`spill-${i}`, { content: `pelicans ${i % 7 === 0 ? 'herons' : 'gulls'} wade in shallow water ${i}` }),
      ),
    );
    await roomy.refresh();
    for (const q of ['pelicans', 'herons water', 'shallow gulls', 'wade']) {
      const a = tight.search(search(q, { limit: 20 }));
      expect(a.length, q).toBeGreaterThan(0);
      expect(a, q).toEqual(roomy.search(search(q, { limit: 20 })));
    }
    expect(tight.rankerStatus().state).toBe('ready');
  });

  it('keeps answering from memory while PostgreSQL is unreachable (told once) and catches up when it is back', async () => {
    const target = new URL(db!.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    // The cut refuses connections (an error at once), so no timeout is waited on: the
    // connect timeout only bounds a first connection on a busy machine, which took over
    // 500 ms with other PostgreSQL suites running (the open failed).
    const pool = openPostgres({ url: proxy.url(db!.url), schema: db!.schema, connectTimeoutMs: 30_000 });
    const errors: unknown[] = [];
    let recovered = 0;
    let index: FollowerIndex | undefined;
    try {
      const follower = await openFollowerIndex(createPostgresIndexStore(pool), {
        pollMs: 50,
        onStoreError: (e) => errors.push(e),
        onStoreRecovered: () => recovered++,
      });
      index = follower;
      const before = follower.search(search('kingfisher'));
      expect(before.length).toBeGreaterThan(0);
      proxy.cut();
      // Bounds far from the ~50 ms these take: limits for a hang, not a measure of speed.
      await within(
        30_000,
        () => errors.length,
        (n) => n > 0,
      );
      // Still told once, however many polls fail.
      await new Promise((r) => setTimeout(r, 300));
      expect(errors).toHaveLength(1);
      expect(follower.search(search('kingfisher'))).toEqual(before);
      await new StoreIndexWriter(createPostgresIndexStore(pools[1])).upsertRows([
        row('osprey', { content: 'ospreys return in spring' }),
      ]);
      proxy.restore();
      await within(
        30_000,
        () => follower.search(search('ospreys')).length,
        (n) => n === 1,
      );
      expect(recovered).toBe(1);
    } finally {
      await index?.close();
      await pool.end();
      await proxy.close();
    }
  });
});
