import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { declaredTypes, FEATURE_NAMES, measureLayout, pageFeatures } from '../../../src/extract/html/page-features.ts';
import { textLength } from '../../../src/extract/html/text-stats.ts';

const doc = (html: string): Document => parseHTML(html).document as unknown as Document;
const feature = (x: number[], name: (typeof FEATURE_NAMES)[number]): number => x[FEATURE_NAMES.indexOf(name)] ?? NaN;

describe('declaredTypes', () => {
  it('reads JSON-LD types (one or many, with or without the vocabulary), microdata item types and og:type', () => {
    const d = doc(`<html><head>
      <meta property="og:type" content="Product">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","offers":{"@type":["Offer","schema:AggregateOffer"]}}</script>
      <script type="application/ld+json">[{"@type":"BreadcrumbList"}]</script>
      </head><body><div itemscope itemtype="https://schema.org/ItemList http://schema.org/WebPage"></div></body></html>`);
    expect([...declaredTypes(d)].sort()).toEqual(
      ['aggregateoffer', 'breadcrumblist', 'itemlist', 'offer', 'og:product', 'product', 'webpage'].sort(),
    );
  });

  it('finds nothing on a page that declares nothing, and ignores scripts of other types', () => {
    const d = doc('<html><head><script>var x = {"@type": "Article"};</script></head><body><p>Hi</p></body></html>');
    expect(declaredTypes(d).size).toBe(0);
  });
});

describe('pageFeatures', () => {
  const listing = doc(`<html><body><main><h1>Shoes</h1><p>${'Intro words for the category. '.repeat(8)}</p>
    <ul>${['One', 'Two', 'Three', 'Four'].map((n) => `<li class="item"><a href="/${n}">${n} shoe</a> for trails</li>`).join('')}</ul>
    </main></body></html>`).body;

  it("counts a tree's characters as textLength does, for every element of every golden page", () => {
    const pages = join(import.meta.dirname, '..', 'pages');
    for (const name of readdirSync(pages)) {
      const root = doc(readFileSync(join(pages, name, 'input.html'), 'utf8')).body;
      for (const el of [root, ...Array.from(root.querySelectorAll('*'))])
        expect(measureLayout(el).chars).toBe(textLength(el));
    }
  });

  it('gives one number per named feature, all finite', () => {
    const x = pageFeatures(measureLayout(listing), null, new Set(), 'https://shop.example/shoes/');
    expect(x).toHaveLength(FEATURE_NAMES.length);
    expect(x.every(Number.isFinite)).toBe(true);
  });

  it('measures the layout: link share, list share, repeated like siblings and their share, prose paragraphs', () => {
    const x = pageFeatures(measureLayout(listing), null, new Set(), 'https://shop.example/shoes/');
    const chars = (listing.textContent ?? '').replace(/\s/g, '').length;
    const items = Array.from(listing.querySelectorAll('li')).reduce(
      (n, li) => n + (li.textContent ?? '').replace(/\s/g, '').length,
      0,
    );
    const links = Array.from(listing.querySelectorAll('a')).reduce(
      (n, a) => n + (a.textContent ?? '').replace(/\s/g, '').length,
      0,
    );
    expect(feature(x, 'body_chars')).toBeCloseTo(Math.log1p(chars));
    expect(feature(x, 'body_li_share')).toBeCloseTo(items / chars);
    expect(feature(x, 'body_link_density')).toBeCloseTo(links / chars);
    expect(feature(x, 'repeat_count')).toBeCloseTo(Math.log1p(4));
    expect(feature(x, 'repeat_share')).toBeCloseTo(items / chars);
    expect(feature(x, 'body_paragraphs')).toBeCloseTo(Math.log1p(1));
    expect(feature(x, 'body_headings')).toBeCloseTo(Math.log1p(1));
    expect(feature(x, 'article_found')).toBe(0);
  });

  it("compares Readability's pick with the body and reads the type groups and the URL's shape", () => {
    const d = doc(
      `<html><body><article><p>${'A sentence of the story. '.repeat(20)}</p></article><nav><a href="/">Home</a></nav></body></html>`,
    );
    const article = d.querySelector('article') as Element;
    const x = pageFeatures(
      measureLayout(d.body),
      measureLayout(article),
      new Set(['newsarticle', 'og:article']),
      'https://news.example/2024/05/river-rises-over-old-bridge',
    );
    expect(feature(x, 'article_found')).toBe(1);
    expect(feature(x, 'article_share')).toBeGreaterThan(0.9);
    expect(feature(x, 'article_share')).toBeLessThan(1);
    expect(feature(x, 'type_article')).toBe(1);
    expect(feature(x, 'type_product')).toBe(0);
    expect(feature(x, 'og_article')).toBe(1);
    expect(feature(x, 'url_dated')).toBe(1);
    expect(feature(x, 'url_slug_words')).toBe(5);
    expect(feature(x, 'url_depth')).toBe(3);
  });
});
