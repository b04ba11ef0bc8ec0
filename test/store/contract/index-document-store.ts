import { afterAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import { checkDocument, type IndexDocument } from '../../../src/index/index-document.ts';
import type { DocumentRow, RankerDocument } from '../../../src/store/index-rows.ts';
import type { IndexChange, IndexDocumentStore } from '../../../src/store/ports.ts';

/** A checked row of document `n`, as imports write them. */
export const row = (n: number | string, extra: Partial<IndexDocument> = {}): DocumentRow => {
  const checked = checkDocument({
    url: `https://example.com/doc-${n}`,
    title: `Document ${n}`,
    content: `Text of document ${n}.`,
    ...extra,
  });
  if ('reason' in checked) throw new Error(checked.reason);
  return checked.row;
};

/** Every change past `seq`, read in pages of `page`. */
export async function allChanges(store: IndexDocumentStore, seq = 0, page = 1000): Promise<IndexChange[]> {
  const out: IndexChange[] = [];
  for (;;) {
    const got = await store.changesSince(seq, page);
    out.push(...got);
    if (got.length < page) return out;
    seq = defined(got.at(-1), 'a last change').seq;
  }
}

/** The live documents by id after applying `changes` in order to `into`. */
export function applyChanges(
  changes: IndexChange[],
  into = new Map<number, RankerDocument>(),
): Map<number, RankerDocument> {
  for (const c of changes) {
    if (c.doc) into.set(c.id, c.doc);
    else into.delete(c.id);
  }
  return into;
}

const urlsOf = (docs: Map<number, RankerDocument>): string[] => [...docs.values()].map((d) => d.url).sort();

export interface IndexDocumentStoreContractOptions {
  /**
   * The embedded SQLite store (src/index/sqlite-index-store.ts) writes every row it is given,
   * unchanged or not, and replaceSource deletes the source before writing it again: an
   * unchanged row takes a new number (and through replaceSource may take a new id). The case that
   * holds a store to "no change" is skipped for it.
   */
  rewritesUnchanged?: boolean;
  /** Runs once after the suite. */
  cleanup?: () => Promise<void>;
}

/**
 * The IndexDocumentStore contract. `make` hands out an empty store each time (a fresh file,
 * schema or twin): the change sequence, counts and stats are the store's whole state.
 */
export function indexDocumentStoreContract(
  backend: string,
  make: () => Promise<IndexDocumentStore>,
  options: IndexDocumentStoreContractOptions = {},
): void {
  const { rewritesUnchanged = false, cleanup } = options;
  describe(`IndexDocumentStore contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('gives written documents in sequence order, as the ranker takes them', async () => {
      const store = await make();
      expect(await store.latestSeq()).toBe(0);
      expect(
        await store.upsert([row(1, { published_date: '2024-06-01T08:30:00+02:00', country: 'nl' }), row(2)], 'import'),
      ).toBe(2);
      const changes = await allChanges(store);
      expect(changes.map((c) => c.doc?.url)).toEqual(['https://example.com/doc-1', 'https://example.com/doc-2']);
      const [first, second] = [defined(changes[0], 'a first change'), defined(changes[1], 'a second change')];
      expect(first.seq).toBeLessThan(second.seq);
      expect(first.doc).toEqual({
        id: first.id,
        url: 'https://example.com/doc-1',
        domain: 'example.com',
        title: 'Document 1',
        content: 'Text of document 1.',
        publishedDate: '2024-06-01T06:30:00Z',
        day: '2024-06-01',
        country: 'NL',
      });
      expect(await store.latestSeq()).toBe(second.seq);
      expect(await store.count()).toBe(2);
    });

    it('replaces a url in place (same id) and reports only what changed since a number', async () => {
      const store = await make();
      await store.upsert([row(1), row(2)], 'import');
      const before = await allChanges(store);
      const seq = await store.latestSeq();
      await store.upsert([row(1, { title: 'New title' })], 'import');
      const after = await store.changesSince(seq, 100);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: defined(before[0], 'a first change').id, doc: { title: 'New title' } });
      expect(after[0]?.seq).toBeGreaterThan(seq);
      expect(await store.count()).toBe(2);
    });

    it('keeps the last row of a url written twice in one batch', async () => {
      const store = await make();
      expect(await store.upsert([row(1, { title: 'First' }), row(2), row(1, { title: 'Last' })], 'import')).toBe(3);
      const live = applyChanges(await allChanges(store));
      expect([...live.values()].map((d) => d.title).sort()).toEqual(['Document 2', 'Last']);
    });

    it('makes deletions visible as changes', async () => {
      const store = await make();
      await store.upsert([row(1), row(2), row(3)], 'import');
      const seq = await store.latestSeq();
      const ids = applyChanges(await allChanges(store));
      expect(await store.remove(['https://example.com/doc-2', 'https://example.com/absent'])).toBe(1);
      const gone = await store.changesSince(seq, 100);
      expect(gone).toEqual([
        { seq: expect.any(Number), id: [...ids.values()].find((d) => d.title === 'Document 2')!.id, doc: null },
      ]);
      expect(await store.latestSeq()).toBe(defined(gone[0], 'the deletion').seq);
      expect(urlsOf(applyChanges(gone, ids))).toEqual(['https://example.com/doc-1', 'https://example.com/doc-3']);
      expect(await store.remove([])).toBe(0);
    });

    it('replaces one source as a whole, leaving the others', async () => {
      const store = await make();
      await store.upsert([row('i1'), row('i2')], 'import');
      await store.replaceSource('starter', [row('s1'), row('s2'), row('s3')]);
      const live = applyChanges(await allChanges(store));
      expect(await store.replaceSource('starter', [row('s2', { content: 'changed' }), row('s4')])).toBe(2);
      applyChanges(await allChanges(store, 0), live);
      expect(urlsOf(live)).toEqual(['i1', 'i2', 's2', 's4'].map((n) => `https://example.com/doc-${n}`));
      expect([...live.values()].find((d) => d.url.endsWith('s2'))!.content).toBe('changed');
      expect((await store.stats()).sources).toEqual({ import: 2, starter: 2 });
      await store.replaceSource('starter', []);
      expect((await store.stats()).sources).toEqual({ import: 2 });
    });

    it('pages through a long sequence, each id once at its latest change', async () => {
      const store = await make();
      await store.upsert(
        Array.from({ length: 120 }, (_, i) => row(i)),
        'import',
      );
      await store.upsert(
        Array.from({ length: 30 }, (_, i) => row(i * 3, { content: `edited ${i}` })),
        'import',
      );
      await store.remove(Array.from({ length: 10 }, (_, i) => `https://example.com/doc-${i * 7}`));
      const paged = await allChanges(store, 0, 17);
      expect(paged).toEqual(await allChanges(store, 0, 1000));
      const ids = paged.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      const seqs = paged.map((c) => c.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      const live = applyChanges(paged);
      expect(live.size).toBe(110);
      expect(await store.count()).toBe(110);
      expect([...live.values()].find((d) => d.url.endsWith('/doc-3'))!.content).toBe('edited 1');
    });

    it('reports stats', async () => {
      const store = await make();
      const before = Date.now();
      await store.replaceSource('starter', [row(9, { url: 'https://starter.example/doc' })]);
      expect((await store.stats()).lastImportAt).toBeUndefined();
      await store.upsert(
        [
          row(1, { published_date: '2023-01-02' }),
          row(2, { url: 'https://www.other.org/x', published_date: '2024-06-01T08:00:00Z' }),
          row(3, { url: 'https://blog.other.org/y' }),
        ],
        'import',
      );
      const s = await store.stats();
      expect(s).toMatchObject({
        documents: 4,
        domains: 4,
        dated: 2,
        oldest: '2023-01-02',
        newest: '2024-06-01T08:00:00Z',
        sources: { import: 3, starter: 1 },
      });
      expect(s.bytes).toBeGreaterThan(0);
      expect(s.textBytes).toBe(4 * Buffer.byteLength('Document 1Text of document 1.'));
      // When an import last wrote (the dashboard's "last import"): an ISO instant of this test's run.
      expect(s.lastImportAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(s.lastImportAt!)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(s.lastImportAt!)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('lists documents in url order, by domain (with subdomains) and source, a page at a time', async () => {
      const store = await make();
      await store.upsert(
        [
          row('b', { url: 'https://other.org/b', published_date: '2024-06-01' }),
          row('a', { url: 'https://blog.other.org/a' }),
          row('c', { url: 'https://notother.org/c' }),
          row('d', { url: 'https://other.org/d' }),
        ],
        'import',
      );
      await store.upsert([row('s', { url: 'https://other.org/s' })], 'starter');
      const urls = async (q: Parameters<typeof store.list>[0]) => (await store.list(q)).map((e) => e.url);
      expect(await urls({ limit: 10 })).toEqual([
        'https://blog.other.org/a',
        'https://notother.org/c',
        'https://other.org/b',
        'https://other.org/d',
        'https://other.org/s',
      ]);
      expect(await urls({ domain: 'other.org', limit: 10 })).toEqual([
        'https://blog.other.org/a',
        'https://other.org/b',
        'https://other.org/d',
        'https://other.org/s',
      ]);
      expect(await urls({ domain: 'other.org', source: 'import', limit: 2 })).toEqual([
        'https://blog.other.org/a',
        'https://other.org/b',
      ]);
      expect(await urls({ domain: 'other.org', source: 'import', limit: 2, after: 'https://other.org/b' })).toEqual([
        'https://other.org/d',
      ]);
      expect(await urls({ source: 'starter', limit: 10 })).toEqual(['https://other.org/s']);
      expect(await urls({ domain: 'example.com', limit: 10 })).toEqual([]);
      const [first] = await store.list({ domain: 'other.org', limit: 1, after: 'https://blog.other.org/a' });
      expect(first).toEqual({
        url: 'https://other.org/b',
        title: 'Document b',
        domain: 'other.org',
        source: 'import',
        published_date: '2024-06-01',
      });
    });

    it('reports empty stats for an empty store', async () => {
      const store = await make();
      expect(await store.stats()).toMatchObject({ documents: 0, domains: 0, textBytes: 0, dated: 0, sources: {} });
      expect(await store.changesSince(0, 10)).toEqual([]);
      expect(await store.count()).toBe(0);
    });

    it.skipIf(rewritesUnchanged)(
      'takes no sequence number for a row written again unchanged (a replica restarting with the same starter corpus)',
      async () => {
        const store = await make();
        const rows = [row(1), row(2, { published_date: '2024-01-02' })];
        await store.replaceSource('starter', rows);
        const seq = await store.latestSeq();
        const ids = (await allChanges(store)).map((c) => c.id);
        await store.replaceSource(
          'starter',
          rows.map((r) => ({ ...r })),
        );
        await store.upsert([defined(rows[0], 'row 1')], 'starter');
        expect(await store.latestSeq()).toBe(seq);
        expect(await store.changesSince(seq, 100)).toEqual([]);
        // A field the ranker does not see is still a change; the url keeps its id.
        await store.replaceSource('starter', [row(1, { language: 'de' }), defined(rows[1], 'row 2')]);
        const language = await store.changesSince(seq, 100);
        expect(language.map((c) => c.id)).toEqual([ids[0]]);
        // The same row under another source is a change.
        await store.upsert([defined(rows[0], 'row 1')], 'import');
        expect(await store.latestSeq()).toBeGreaterThan(defined(language[0], 'the language change').seq);
        expect((await allChanges(store)).map((c) => c.id).sort((a, b) => a - b)).toEqual(
          [...ids].sort((a, b) => a - b),
        );
      },
    );
  });
}
