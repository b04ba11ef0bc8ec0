import { describe, expect, it } from 'vitest';
import { FACT_LINKS_MAX, htmlFacts, markdownFacts } from '../../src/extract/page-facts.ts';

describe('page facts', () => {
  it('lists every web link of an HTML page once, absolute, without fragments, nofollow ones too', () => {
    const html = `<html lang=" de "><head><base href="https://a.example/docs/">
      <meta property="og:description" content="From og."><meta name="robots" content="nofollow"></head><body>
      <a href="intro">Intro</a> <a href="intro#part">Intro again</a> <a rel="nofollow" href="/x">X</a>
      <a href="mailto:a@a.example">mail</a> <a href="javascript:void 0">js</a> <area href="https://b.example/">
      </body></html>`;
    expect(htmlFacts(html, 'https://a.example/page')).toEqual({
      links: ['https://a.example/docs/intro', 'https://a.example/x', 'https://b.example/'],
      description: 'From og.',
      language: 'de',
    });
  });

  it('prefers meta description to og:description, and leaves out what is blank', () => {
    const html =
      '<html><head><meta name="description" content="  Own   words. "><meta property="og:description" content="og"></head><body></body></html>';
    expect(htmlFacts(html, 'https://a.example/')).toEqual({ links: [], description: 'Own words.' });
    expect(htmlFacts('<p>no head</p>', 'https://a.example/')).toEqual({ links: [] });
  });

  it('bounds the links of a page of many anchors', () => {
    const anchors = Array.from({ length: FACT_LINKS_MAX + 10 }, (_, i) => `<a href="/p${i}">p</a>`).join('');
    expect(htmlFacts(`<body>${anchors}</body>`, 'https://a.example/').links).toHaveLength(FACT_LINKS_MAX);
  });

  it('reads the links of markdown for pages that are not HTML', () => {
    expect(
      markdownFacts(
        '[a](https://a.example/x#y) and <https://b.example/> and [a](https://a.example/x)',
        'https://a.example/',
      ),
    ).toEqual({ links: ['https://a.example/x', 'https://b.example/'] });
  });
});
