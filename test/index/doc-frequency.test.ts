import { describe, expect, it } from 'vitest';
import { doc, search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

/** 10 documents with "ubiquitous"; documents 0-2 also have "scarce"; 9 has "scarce" twice. */
function corpus(options = {}) {
  const index = t.open(options);
  index.upsert(
    Array.from({ length: 10 }, (_, i) =>
      doc(i, { content: `ubiquitous words ${i < 3 ? 'scarce' : ''} ${i === 9 ? 'ubiquitous ubiquitous' : ''}` }),
    ),
  );
  return index;
}
const ids = (hits: { url: string }[]) => hits.map((h) => h.url.replace('https://example.com/doc-', ''));

describe('terms found in half the documents or more', () => {
  it('rank as FTS5 would rank the full OR: informative matches first, then the rest', () => {
    const full = ids(corpus({ cacheSize: 0 }).search(search('ubiquitous scarce', { limit: 10 })));
    expect(full).toHaveLength(10);
    expect(full.slice(0, 3).sort()).toEqual(['0', '1', '2']);
    expect(full.slice(3).sort()).toEqual(['3', '4', '5', '6', '7', '8', '9']);
  });

  it('are not scored when the informative terms fill the page', () => {
    expect(ids(corpus().search(search('ubiquitous scarce', { limit: 2 })))).toHaveLength(2);
    expect(ids(corpus().search(search('ubiquitous scarce', { limit: 3 }))).sort()).toEqual(['0', '1', '2']);
  });

  it('are all kept when no term is informative', () => {
    const hits = corpus().search(search('ubiquitous words', { limit: 20 }));
    expect(hits).toHaveLength(10);
    expect(ids(hits)[0]).toBe('9');
  });

  it('are kept alone when the other terms match nothing', () => {
    expect(corpus().search(search('ubiquitous nowhere', { limit: 20 }))).toHaveLength(10);
  });

  it('follow writes: a term that becomes rare counts again', () => {
    const index = corpus();
    expect(ids(index.search(search('scarce ubiquitous', { limit: 3 }))).sort()).toEqual(['0', '1', '2']);
    index.upsert(Array.from({ length: 30 }, (_, i) => doc(`new-${i}`, { content: 'fresh text' })));
    const hits = ids(index.search(search('scarce ubiquitous', { limit: 4 })));
    expect(hits.slice(0, 3).sort()).toEqual(['0', '1', '2']);
    expect(hits[3]).toBe('9');
  });
});
