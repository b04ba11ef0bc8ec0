import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/extract-document.ts';
import { boundMarkup, MAX_MARKUP_CHARS, MAX_MARKUP_TAGS } from '../../src/extract/markup-bounds.ts';

const html = (s: string) => ({ body: new TextEncoder().encode(s), contentType: 'text/html', url: 'https://e.test/' });

describe('boundMarkup', () => {
  it('leaves markup within both bounds as it is', () => {
    const markup = '<p>one</p><p>two</p>';
    expect(boundMarkup(markup, 100, 2)).toEqual({ markup, truncated: false });
  });

  it('cuts before the start tag past the tag bound, counting only start tags', () => {
    expect(boundMarkup('<p>one</p><!-- c --><p>two</p><p>three</p>', 1000, 2)).toEqual({
      markup: '<p>one</p><!-- c --><p>two</p>',
      truncated: true,
    });
    expect(boundMarkup('a < b </p></p></p> <P>x', 1000, 0).markup).toBe('a < b </p></p></p> ');
  });

  it('cuts at the character bound, before a tag it would split', () => {
    expect(boundMarkup('<p>one</p><a href="/x">two</a>', 15, 100)).toEqual({ markup: '<p>one</p>', truncated: true });
    expect(boundMarkup('<p>a long paragraph</p>', 10, 100)).toEqual({ markup: '<p>a long ', truncated: true });
  });

  it('never splits a surrogate pair', () => {
    expect(boundMarkup('ab😀cd', 3, 100)).toEqual({ markup: 'ab', truncated: true });
  });

  it('bounds what extraction parses and says the answer is truncated', async () => {
    const para = '<p>A paragraph of the page.</p>';
    const longPage = `<html><body><main>${para.repeat(MAX_MARKUP_TAGS + 10)}</main></body></html>`;
    const doc = await extractDocument(html(longPage));
    expect(doc.truncated).toBe(true);
    expect(doc.markdown.split('A paragraph of the page.').length - 1).toBeLessThan(MAX_MARKUP_TAGS);
    const text = await extractDocument(html(`<p>${'word '.repeat(MAX_MARKUP_CHARS / 4)}</p>`));
    expect(text.truncated).toBe(true);
    expect(text.markdown.length).toBeLessThanOrEqual(MAX_MARKUP_CHARS);
    expect((await extractDocument(html(para))).truncated).toBeUndefined();
  });

  it('bounds feeds too, and lists at most 2,000 items', async () => {
    const item = (i: number) => `<item><title>Item ${i}</title><link>https://e.test/${i}</link></item>`;
    const feed = (n: number) => ({
      body: new TextEncoder().encode(
        `<rss><channel><title>F</title>${Array.from({ length: n }, (_, i) => item(i)).join('')}</channel></rss>`,
      ),
      contentType: 'application/rss+xml',
      url: 'https://e.test/feed',
    });
    const long = await extractDocument(feed(2_500));
    expect(long.truncated).toBe(true);
    expect(long.markdown.split('\n')).toHaveLength(2_000);
    expect(long.markdown).toContain('[Item 1999](https://e.test/1999)');
    const short = await extractDocument(feed(3));
    expect(short.truncated).toBeUndefined();
    expect(short.markdown.split('\n')).toHaveLength(3);
  });
});
