import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sitemapText } from '../../src/site/sitemap-body.ts';

describe('sitemapText', () => {
  it('reads plain and gzipped sitemaps alike', async () => {
    const xml = '<urlset><url><loc>https://a.test/</loc></url></urlset>';
    expect(await sitemapText(new TextEncoder().encode(xml))).toEqual({ text: xml, cut: false });
    expect(await sitemapText(gzipSync(xml))).toEqual({ text: xml, cut: false });
  });

  it('cuts a gzip bomb at the bound, keeping what came before', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('<urlset>'), Buffer.alloc(8 * 1024 * 1024, 0x20)]));
    const { text, cut } = await sitemapText(bomb, 1024);
    expect(cut).toBe(true);
    expect(text.length).toBe(1024);
    expect(text.startsWith('<urlset>')).toBe(true);
  });
});
