import { describe, expect, it } from 'vitest';
import { MemoryRanker, type RankQuery } from '../../../src/index/ranker/memory-ranker.ts';
import type { RankerDocument } from '../../../src/store/index-rows.ts';
import { rng } from '../../../bench/make-corpus.ts';
import { rankerDocs } from './ranker-docs.ts';
import { defined } from '../../helpers/defined.ts';

const docsOf = rankerDocs;

const query = (terms: string[], spans: string[] = []): RankQuery => ({
  terms,
  spans,
  filters: { include: [], exclude: [] },
  wanted: 10,
  proximityWeight: 0.25,
  rerankWindow: 100,
});

// Builds and searches indexes of thousands of documents: up to 3 s on a quiet 2-core machine;
// a busy one takes several times that, and the limit is far above it (issue 24). Speed is bench/index.ts.
describe('MemoryRanker', { timeout: 120_000 }, () => {
  it('after heavy churn (replacements, removals, compaction) ranks exactly as one built from the survivors', () => {
    const all = docsOf(1200, 21);
    const churned = new MemoryRanker();
    for (const d of all) churned.add(d);
    const rand = rng(8);
    const final = new Map<number, RankerDocument>(all.map((d) => [d.id, d]));
    // Replace a third with other texts, remove half of the rest: dead postings pass the live ones.
    const others = docsOf(400, 99);
    for (let i = 0; i < 400; i++) {
      const id = 1 + Math.floor(rand() * 1200);
      const d = { ...defined(others[i], `other document ${i}`), id };
      churned.add(d);
      final.set(id, d);
    }
    for (let id = 1; id <= 1200; id++) {
      if (id % 2 === 0) {
        churned.remove(id);
        final.delete(id);
      }
    }
    const fresh = new MemoryRanker();
    for (const d of [...final.values()].sort((a, b) => a.id - b.id)) fresh.add(d);
    expect(churned.size).toBe(final.size);
    const words = all.slice(0, 40).flatMap((d) => d.title.toLowerCase().split(' '));
    for (let i = 0; i < 150; i++) {
      const terms = [
        ...new Set(
          Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
            defined(words[Math.floor(rand() * words.length)], 'a word'),
          ),
        ),
      ];
      const spans = terms.length > 1 ? [terms.slice(0, 2).join(' ')] : [];
      const a = churned.rank(query(terms, spans));
      const b = fresh.rank(query(terms, spans));
      expect(
        a?.map((r) => [r.id, r.score]),
        terms.join(' '),
      ).toEqual(b?.map((r) => [r.id, r.score]));
    }
  });

  it('matches a query word FTS5 splits into several tokens as a phrase, and one it drops as nothing', () => {
    const r = new MemoryRanker();
    const base = { domain: 'a.test', publishedDate: null, day: null, country: null };
    r.add({ id: 1, url: 'https://a.test/1', title: 'One', content: 'alpha beta gamma', ...base });
    r.add({ id: 2, url: 'https://a.test/2', title: 'Two', content: 'beta alpha gamma', ...base });
    r.add({ id: 3, url: 'https://a.test/3', title: 'Three', content: 'delta', ...base });
    // U+0305 is a separator to FTS5's unicode61: "alpha̅beta" is the phrase "alpha beta".
    expect(r.rank(query(['alpha\u0305beta']))?.map((h) => h.id)).toEqual([1]);
    // U+19B0 makes no token at all: the word matches nothing, the other word still ranks.
    expect(r.rank(query(['\u19b0', 'delta']))?.map((h) => h.id)).toEqual([3]);
    // More tokens than any 400-character query makes: not ranked here.
    expect(r.rank(query(['a\u0305'.repeat(600)]))).toBeUndefined();
  });

  it('gives the shown fields of ranked documents when it keeps texts, and none of a removed one', () => {
    const r = new MemoryRanker({ keepTexts: true });
    const base = { domain: 'a.test', publishedDate: '2024-05-01', day: '2024-05-01', country: null };
    r.add({ id: 1, url: 'https://a.test/1', title: 'Herons', content: 'Grey herons wade. A heron waits.', ...base });
    r.add({ id: 2, url: 'https://a.test/2', title: 'Gulls', content: 'A heron and gulls.', ...base });
    const ranked = r.rank(query(['heron']))!;
    expect(r.page(ranked)).toEqual([
      {
        score: defined(ranked[0], 'a first ranked document').score,
        url: 'https://a.test/1',
        title: 'Herons',
        content: 'Grey herons wade. A heron waits.',
        domain: 'a.test',
        publishedDate: '2024-05-01',
      },
      {
        score: defined(ranked[1], 'a second ranked document').score,
        url: 'https://a.test/2',
        title: 'Gulls',
        content: 'A heron and gulls.',
        domain: 'a.test',
        publishedDate: '2024-05-01',
      },
    ]);
    r.remove(2);
    expect(r.page(ranked).map((h) => h.url)).toEqual(['https://a.test/1']);
    expect(new MemoryRanker({ keepTexts: false }).keepsTexts).toBe(false);
  });
});
