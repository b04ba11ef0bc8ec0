import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, parseSitemap } from '../../src/site/sitemap-xml.ts';

describe('parseSitemap', () => {
  it('reads a urlset with lastmod, CDATA and entities', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc> https://a.test/x?p=1&amp;q=2 </loc><lastmod>2025-01-02</lastmod></url>
      <url><loc><![CDATA[https://a.test/y]]></loc><changefreq>daily</changefreq></url>
      <url><lastmod>2025-01-01</lastmod></url>
    </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [
        { loc: 'https://a.test/x?p=1&q=2', lastmod: '2025-01-02' },
        { loc: 'https://a.test/y', lastmod: null },
      ],
    });
  });

  it('reads a sitemap index, and leaves out an entry cut by a truncated body', () => {
    const xml =
      '<sitemapindex><sitemap><loc>https://a.test/1.xml</loc></sitemap><sitemap><loc>https://a.test/2.xml</loc></sitemap><sitemap><loc>https://a.te';
    expect(parseSitemap(xml)).toEqual({
      kind: 'index',
      entries: [
        { loc: 'https://a.test/1.xml', lastmod: null },
        { loc: 'https://a.test/2.xml', lastmod: null },
      ],
    });
  });

  it('reads the plain-text form, and refuses what is neither', () => {
    expect(parseSitemap('https://a.test/1\n# x\nhttps://a.test/2\n')?.entries.map((e) => e.loc)).toEqual([
      'https://a.test/1',
      'https://a.test/2',
    ]);
    expect(parseSitemap('<html><body>Not found</body></html>')).toBeUndefined();
    expect(parseSitemap('')).toBeUndefined();
  });

  it('reads at most MAX_ENTRIES entries', () => {
    const xml = `<urlset>${'<url><loc>https://a.test/</loc></url>'.repeat(MAX_ENTRIES + 5)}</urlset>`;
    expect(parseSitemap(xml)?.entries).toHaveLength(MAX_ENTRIES);
  });
});
