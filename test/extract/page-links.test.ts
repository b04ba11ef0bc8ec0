import { describe, expect, it } from 'vitest';
import { htmlLinks, markdownLinks } from '../../src/extract/page-links.ts';

const PAGE = 'https://example.com/docs/intro';

describe('htmlLinks', () => {
  it('finds every followable link in the raw page, navigation included, resolved against the page', () => {
    const html = `<html><head><title>t</title></head><body>
      <nav><a href="/docs/a">A</a><a href="b">B</a></nav>
      <main><p>See <a href="https://other.test/x#frag">x</a> and <a href="javascript:go()">go</a>.</p>
      <map><area href="/area" alt=""></map><a name="anchor-only">no href</a>
      <a href="/sponsor" rel="sponsored nofollow">ad</a><a href="/file" download>file</a></main></body></html>`;
    expect(htmlLinks(html, PAGE)).toEqual({
      links: [
        'https://example.com/docs/a',
        'https://example.com/docs/b',
        'https://other.test/x#frag',
        'https://example.com/area',
      ],
      index: true,
      follow: true,
    });
  });

  it('resolves against <base href>', () => {
    const html = '<html><head><base href="https://cdn.example.com/v2/"></head><body><a href="page">p</a></body></html>';
    expect(htmlLinks(html, PAGE).links).toEqual(['https://cdn.example.com/v2/page']);
  });

  it.each([
    ['<meta name="robots" content="noindex">', { index: false, follow: true }],
    ['<meta name="ROBOTS" content="NOINDEX, NOFOLLOW">', { index: false, follow: false }],
    ['<meta name="robots" content="none">', { index: false, follow: false }],
    ['<meta name="ScoutFetch" content="nofollow">', { index: true, follow: false }],
    ['<meta name="googlebot" content="noindex, nofollow">', { index: true, follow: true }],
    ['<meta name="robots" content="index, follow">', { index: true, follow: true }],
  ])('honours %s', (meta, expected) => {
    const out = htmlLinks(`<html><head>${meta}</head><body><a href="/x">x</a></body></html>`, PAGE);
    expect({ index: out.index, follow: out.follow }).toEqual(expected);
    expect(out.links).toEqual(expected.follow ? ['https://example.com/x'] : []);
  });
});

describe('markdownLinks', () => {
  it('finds inline links and autolinks, not images, resolving relative ones', () => {
    const md = [
      '# Title',
      'Read [the guide](https://example.com/guide "Guide") or [setup](../setup).',
      '![diagram](https://example.com/d.png) [![badge](https://img.test/b.svg)](https://example.com/status)',
      'Also <https://example.com/auto> and [wiki](https://en.wikipedia.org/wiki/Foo_(bar)).',
      '- [Feed item [1]](https://example.com/item-1)',
    ].join('\n');
    expect(markdownLinks(md, PAGE).links).toEqual([
      'https://example.com/guide',
      'https://example.com/setup',
      'https://example.com/status',
      'https://example.com/auto',
      'https://en.wikipedia.org/wiki/Foo_(bar)',
      'https://example.com/item-1',
    ]);
  });

  it('finds nothing in plain text', () => {
    expect(markdownLinks('just text (with parens) and [brackets]', PAGE)).toEqual({
      links: [],
      index: true,
      follow: true,
    });
  });

  it('finds a link whose text nests brackets deeper than one level (from its inner bracket)', () => {
    expect(markdownLinks('[a [b [c] d](https://example.com/deep) and [x [y] z](/n)', PAGE).links).toEqual([
      'https://example.com/deep',
      'https://example.com/n',
    ]);
  });

  // The old pattern scanned to the end of the page from every `[`: about 33 s here.
  it('reads 200,000 opening brackets quickly', { timeout: 10_000 }, () => {
    expect(markdownLinks('['.repeat(200_000), PAGE).links).toEqual([]);
    expect(markdownLinks(`${'['.repeat(100_000)}[a](/x)`, PAGE).links).toEqual(['https://example.com/x']);
  });
});
