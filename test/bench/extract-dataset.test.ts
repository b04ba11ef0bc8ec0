import { afterAll, describe, expect, it } from 'vitest';
import { detectLayout, isHeldOut, loadDataset, splitPages } from '../../bench/extract-dataset.ts';
import { pageHtml, removeSets, wcxbEntry, writeSet } from './wcxb-fixture.ts';

afterAll(removeSets);

const ids = Array.from({ length: 20 }, (_, i) => String(i + 1).padStart(4, '0'));
/** The ids of 0001…0020 whose sha256 starts with a byte below 64: worked out once, by hand. */
const HELD_OUT = ['0004', '0005', '0008', '0010', '0013', '0014', '0017', '0020'];
const TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'];

function wcxbSet(typeIn: 'entry' | 'tsv'): string {
  const pages = ids.map((id, i) => {
    const type = TYPES[i % TYPES.length] ?? 'article';
    const entry = wcxbEntry(type, `Body of page ${id}.`, { with: [`page ${id}`], without: ['Home'] });
    if (typeIn === 'tsv') delete entry.page_type;
    return { id, html: pageHtml(`Page ${id}`, [`Body of page ${id}.`]), entry };
  });
  const tsv = [
    ['id', 'page_type', 'host', 'url'],
    ...ids.map((id, i) => [id, TYPES[i % TYPES.length] ?? '', 'example.com', `https://example.com/${id}`]),
  ];
  return writeSet(pages, tsv);
}

describe('bench dataset layouts', () => {
  it('tells the original layout from the WCXB one', () => {
    expect(detectLayout([{ articleBody: 'x', url: 'u' }], [])).toBe('articles');
    expect(detectLayout([wcxbEntry('forum', 'x')], [])).toBe('wcxb');
    // The page type may come from pages.tsv instead of the entry.
    const untyped = { url: 'u', main_content: 'x', with: [], without: [] };
    expect(detectLayout([untyped], ['id', 'page_type'])).toBe('wcxb');
    expect(() => detectLayout([untyped], ['id', 'source'])).toThrow(/neither layout/);
  });

  it('refuses a set that mixes the layouts or has malformed snippets', () => {
    expect(() => detectLayout([{ articleBody: 'x' }, wcxbEntry('forum', 'x')], [])).toThrow(/neither layout/);
    expect(() => detectLayout([{ ...wcxbEntry('forum', 'x'), with: 'a snippet' }], [])).toThrow(/neither layout/);
  });

  it("loads a WCXB set's reference, page type and snippets, from the entry or pages.tsv", () => {
    for (const typeIn of ['entry', 'tsv'] as const) {
      const pages = loadDataset(wcxbSet(typeIn));
      expect(pages).toHaveLength(20);
      const second = pages[1];
      expect(second?.truth).toBe('Body of page 0002.');
      expect(second?.source).toBe('all');
      expect(second?.wcxb).toEqual({
        pageType: 'forum',
        reference: 'Body of page 0002.',
        with: ['page 0002'],
        without: ['Home'],
      });
    }
  });

  it('loads the original layout as before, without WCXB ground truth', () => {
    const dir = writeSet([
      { id: 'a1', html: pageHtml('A', ['Text.']), entry: { articleBody: 'Text.', url: 'https://a/' } },
    ]);
    expect(loadDataset(dir)).toEqual([
      { id: 'a1', source: 'all', url: 'https://a/', truth: 'Text.', body: expect.any(Uint8Array) },
    ]);
  });
});

describe('bench splits', () => {
  it('holds out a fixed quarter by the hash of the page id', () => {
    expect(ids.filter(isHeldOut)).toEqual(HELD_OUT);
  });

  it('splits a WCXB set, though it names no sources', () => {
    const pages = loadDataset(wcxbSet('entry'));
    const holdout = splitPages(pages, 'holdout').map((p) => p.id);
    const dev = splitPages(pages, 'dev').map((p) => p.id);
    expect(holdout).toEqual(HELD_OUT);
    expect(dev).toHaveLength(12);
    expect([...dev, ...holdout].sort()).toEqual(ids);
    expect(splitPages(pages, 'all')).toHaveLength(20);
  });

  it('splits a multi-source set and keeps a set without sources whole', () => {
    const pages = ids.map((id) => ({
      id,
      html: pageHtml(id, ['Text.']),
      entry: { articleBody: 'Text.', url: `https://a/${id}` },
    }));
    const single = loadDataset(writeSet(pages));
    expect(splitPages(single, 'holdout')).toHaveLength(20);
    expect(splitPages(single, 'dev')).toHaveLength(20);
    const multi = loadDataset(writeSet(pages, [['id', 'source'], ...ids.map((id, i) => [id, i % 2 ? 'one' : 'two'])]));
    expect(splitPages(multi, 'holdout').map((p) => p.id)).toEqual(HELD_OUT);
    expect(splitPages(multi, 'dev')).toHaveLength(12);
  });
});
