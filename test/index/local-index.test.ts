import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLocalIndex } from '../../src/index/local-index.ts';
import { defined } from '../helpers/defined.ts';
import { doc, search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

describe('LocalIndex upsert, count and stats', () => {
  it('creates the schema, upserts in one go and replaces a re-imported url', () => {
    const index = t.open();
    expect(index.count()).toBe(0);
    expect(index.upsert([doc(1, { content: 'old words about turnips' }), doc(2)])).toBe(2);
    index.upsert([doc(1, { title: 'New title', content: 'fresh words about carrots' })]);
    expect(index.count()).toBe(2);
    expect(index.search(search('turnips'))).toEqual([]);
    expect(index.search(search('carrots')).map((h) => h.title)).toEqual(['New title']);
  });

  it('never answers from a stale cache after its own writes', () => {
    const index = t.open();
    expect(index.search(search('parsnips'))).toEqual([]);
    index.upsert([doc(1, { content: 'parsnips' })]);
    expect(index.search(search('parsnips'))).toHaveLength(1);
    index.replaceSource('import', []);
    expect(index.search(search('parsnips'))).toEqual([]);
  });

  it('caches by terms and phrases: reordered stop words share nothing they should not', () => {
    const index = t.open({ rerankWindow: 10 });
    const filler = 'lorem ipsum dolor sit amet '.repeat(4);
    index.upsert([
      doc('split', { content: `bank ${filler} america ${filler}` }),
      doc('phrase', { content: `${filler} bank of america ${filler}` }),
    ]);
    expect(index.search(search('bank america'))[0]?.url).toBe('https://example.com/doc-split');
    expect(index.search(search('bank of america'))[0]?.url).toBe('https://example.com/doc-phrase');
    const first = index.search(search('Bank  AMERICA'));
    first.pop();
    expect(index.search(search('bank america'))).toHaveLength(2);
  });

  it('refuses a batch with an invalid document and writes nothing', () => {
    const index = t.open();
    expect(() => index.upsert([doc(1), doc(2, { url: 'mailto:x@example.com' })])).toThrow(
      'document 2: url must use http or https',
    );
    expect(index.count()).toBe(0);
  });

  it('reports stats', () => {
    const index = t.open();
    index.upsert([
      doc(1, { published_date: '2023-01-02' }),
      doc(2, { url: 'https://www.other.org/x', published_date: '2024-06-01T08:00:00Z' }),
      doc(3, { url: 'https://blog.other.org/y' }),
    ]);
    const s = index.stats();
    expect(s).toMatchObject({
      documents: 3,
      domains: 3,
      dated: 2,
      oldest: '2023-01-02',
      newest: '2024-06-01T08:00:00Z',
      sources: { import: 3 },
    });
    expect(s.bytes).toBeGreaterThan(0);
    expect(s.textBytes).toBeGreaterThan(0);
  });

  it('keeps documents across reopen, and sees writes of another connection despite the cache', () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const reader = openLocalIndex(file);
    const writer = openLocalIndex(file);
    try {
      expect(reader.search(search('walrus'))).toEqual([]);
      writer.upsert([doc(1, { content: 'a walrus on the beach' })]);
      expect(reader.search(search('walrus'))).toHaveLength(1);
    } finally {
      reader.close();
      writer.close();
    }
    const again = openLocalIndex(file);
    expect(again.count()).toBe(1);
    again.close();
  });
});

describe('LocalIndex filters', () => {
  const corpus = () => {
    const index = t.open();
    index.upsert([
      doc('apex', {
        url: 'https://example.com/a',
        content: 'zebra facts',
        published_date: '2024-01-10',
        country: 'US',
      }),
      doc('www', {
        url: 'https://www.example.com/b',
        content: 'zebra stripes',
        published_date: '2024-03-01',
        country: 'DE',
      }),
      doc('sub', {
        url: 'https://blog.example.com/c',
        content: 'zebra herds',
        published_date: '2024-06-15T23:30:00-02:00',
      }),
      doc('other', { url: 'https://notexample.com/d', content: 'zebra crossing', country: 'US' }),
      doc('org', { url: 'https://example.org/e', content: 'zebra zoo', published_date: '2023-12-31' }),
    ]);
    return index;
  };
  const urls = (hits: { url: string }[]) => hits.map((h) => h.url).sort();

  it('include matches the domain and its subdomains, not look-alikes', () => {
    expect(urls(corpus().search(search('zebra', { includeDomains: ['example.com'] })))).toEqual([
      'https://blog.example.com/c',
      'https://example.com/a',
      'https://www.example.com/b',
    ]);
  });

  it('normalises entries the caller left raw', () => {
    expect(urls(corpus().search(search('zebra', { includeDomains: ['https://WWW.Example.ORG/path'] })))).toEqual([
      'https://example.org/e',
    ]);
  });

  it('exclude wins over include', () => {
    const hits = corpus().search(
      search('zebra', { includeDomains: ['example.com'], excludeDomains: ['blog.example.com'] }),
    );
    expect(urls(hits)).toEqual(['https://example.com/a', 'https://www.example.com/b']);
  });

  it('handles long domain lists (the non-inline path) the same way', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `filler${i}.net`);
    const index = corpus();
    expect(
      urls(
        index.search(
          search('zebra', {
            includeDomains: [...filler, 'example.com'],
            excludeDomains: [...filler, 'blog.example.com'],
          }),
        ),
      ),
    ).toEqual(['https://example.com/a', 'https://www.example.com/b']);
  });

  it('dates are inclusive, compare the UTC day and exclude undated documents', () => {
    const index = corpus();
    expect(urls(index.search(search('zebra', { startDate: '2024-03-01' })))).toEqual([
      'https://blog.example.com/c',
      'https://www.example.com/b',
    ]);
    expect(urls(index.search(search('zebra', { endDate: '2024-01-10' })))).toEqual([
      'https://example.com/a',
      'https://example.org/e',
    ]);
    // 2024-06-15T23:30-02:00 is 2024-06-16 in UTC.
    expect(urls(index.search(search('zebra', { startDate: '2024-06-16', endDate: '2024-06-16' })))).toEqual([
      'https://blog.example.com/c',
    ]);
  });

  it('country filters documents that have one and lets the others pass', () => {
    expect(urls(corpus().search(search('zebra', { country: 'us' })))).toEqual([
      'https://blog.example.com/c',
      'https://example.com/a',
      'https://example.org/e',
      'https://notexample.com/d',
    ]);
  });

  it('meets the limit after filtering, and pages with offset', () => {
    const index = t.open();
    const docs = Array.from({ length: 30 }, (_, i) =>
      doc(i, { url: `https://${i % 3 === 0 ? 'keep' : 'drop'}.test/${i}`, content: `okapi ${'okapi '.repeat(i % 5)}` }),
    );
    index.upsert(docs);
    const first = index.search(search('okapi', { includeDomains: ['keep.test'], limit: 6 }));
    const second = index.search(search('okapi', { includeDomains: ['keep.test'], limit: 6, offset: 6 }));
    expect(first).toHaveLength(6);
    expect(second).toHaveLength(4);
    expect(new Set([...first, ...second].map((h) => h.url)).size).toBe(10);
    expect([...first, ...second].every((h) => h.domain === 'keep.test')).toBe(true);
  });
});

describe('LocalIndex ranking and snippets', () => {
  it('ranks a title match above a content-only match', () => {
    const index = t.open();
    index.upsert([
      doc('body', { title: 'Garden notes', content: 'Some words on compost and on other matters of the garden.' }),
      doc('title', { title: 'Compost', content: 'Some words on soil and on other matters of the garden, too.' }),
    ]);
    expect(index.search(search('compost'))[0]?.url).toBe('https://example.com/doc-title');
  });

  it('stems: "indexing" finds "indexed" and "indexes"', () => {
    const index = t.open();
    index.upsert([
      doc(1, { content: 'The pages were indexed overnight.' }),
      doc(2, { content: 'Two indexes.' }),
      doc(3),
    ]);
    expect(
      index
        .search(search('indexing'))
        .map((h) => h.url)
        .sort(),
    ).toEqual(['https://example.com/doc-1', 'https://example.com/doc-2']);
  });

  it('folds diacritics and case', () => {
    const index = t.open();
    index.upsert([doc(1, { content: 'Le café de Zürich' })]);
    expect(index.search(search('CAFE zurich'))).toHaveLength(1);
  });

  it('is an OR: a document with only some terms is found', () => {
    const index = t.open();
    index.upsert([doc(1, { content: 'penguins only' }), doc(2, { content: 'penguins and glaciers' })]);
    const hits = index.search(search('penguins glaciers volcanoes'));
    expect(hits.map((h) => h.url)).toEqual(['https://example.com/doc-2', 'https://example.com/doc-1']);
    expect(hits[0]?.score).toBeGreaterThan(defined(hits[1], 'a second hit').score);
  });

  it('gives a bonus to query terms standing together', () => {
    const index = t.open({ rerankWindow: 10 });
    const filler = 'lorem ipsum dolor sit amet '.repeat(4);
    index.upsert([
      doc('apart', { content: `machine ${filler} learning ${filler}` }),
      doc('together', { content: `${filler} machine learning ${filler}` }),
    ]);
    expect(index.search(search('machine learning')).map((h) => h.url)).toEqual([
      'https://example.com/doc-together',
      'https://example.com/doc-apart',
    ]);
    const flat = t.open({ proximityWeight: 0 });
    flat.upsert([doc('a', { content: 'machine x learning' }), doc('b', { content: 'machine learning' })]);
    expect(flat.search(search('machine learning'))).toHaveLength(2);
  });

  it('snippets show the query terms in context as plain text', () => {
    const index = t.open();
    const before = 'Unrelated opening words about weather and trains. '.repeat(20);
    const after = ' Closing remarks on other subjects entirely. '.repeat(20);
    index.upsert([doc(1, { content: `${before}The axolotl regrows its limbs.${after}` })]);
    const hit = defined(index.search(search('axolotl limbs'))[0], 'a hit');
    expect(hit.content).toContain('axolotl regrows its limbs');
    expect(hit.content.length).toBeLessThanOrEqual(300);
    expect(hit.content).not.toMatch(/<\/?b>|\n/);
    expect(hit.text).toBeUndefined();
    expect(index.search(search('axolotl', { withText: true }))[0]?.text).toContain(before.trim());
  });

  it('gives every hit its own title and snippet', () => {
    const index = t.open();
    const animals = ['heron', 'otter', 'badger', 'marten', 'beaver'];
    index.upsert(
      animals.map((a) => doc(a, { title: `About the ${a}`, content: `wildlife note: the ${a} lives here` })),
    );
    const hits = index.search(search('wildlife'));
    expect(hits).toHaveLength(animals.length);
    for (const h of hits) {
      const animal = h.url.replace('https://example.com/doc-', '');
      expect(h.title).toBe(`About the ${animal}`);
      expect(h.content).toBe(`wildlife note: the ${animal} lives here`);
    }
  });

  it('returns the fields of a hit', () => {
    const index = t.open();
    index.upsert([doc(1, { url: 'https://www.Example.com/p?q=1', content: 'quokka', published_date: '2024-05-01' })]);
    expect(index.search(search('quokka'))).toEqual([
      expect.objectContaining({
        url: 'https://www.example.com/p?q=1',
        title: 'Document 1',
        content: 'quokka',
        domain: 'example.com',
        publishedDate: '2024-05-01',
        score: expect.any(Number),
      }),
    ]);
  });

  it('finds nothing for stop words alone, but keeps words that are also names', () => {
    const index = t.open();
    index.upsert([doc(1, { title: 'The Who', content: 'A band.' }), doc(2, { content: 'To be or not to be.' })]);
    expect(index.search(search('to be or not to be'))).toEqual([]);
    expect(index.search(search('the who')).map((h) => h.url)).toEqual(['https://example.com/doc-1']);
  });
});
