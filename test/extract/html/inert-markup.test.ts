import { describe, expect, it } from 'vitest';
import { stripInertMarkup } from '../../../src/extract/html/inert-markup.ts';

describe('stripInertMarkup', () => {
  it('ends an element at its first closing tag and a comment at its first -->', () => {
    expect(stripInertMarkup('a<SCRIPT type="x">if (a<b) {}</script >b<style>p{}</STYLE>c')).toBe('abc');
    expect(stripInertMarkup('a<!-- x --> y -->b')).toBe('a y -->b');
    expect(stripInertMarkup('a<script-x>s</script>b')).toBe('ab');
    expect(stripInertMarkup('a<scripts>b</scripts>')).toBe('a<scripts>b</scripts>');
  });

  it('keeps what is never closed, and still strips what is closed inside it', () => {
    expect(stripInertMarkup('a<script>x<!-- c -->y')).toBe('a<script>xy');
    expect(stripInertMarkup('a<!-- open <style>s</style>b')).toBe('a<!-- open b');
    expect(stripInertMarkup('<svg')).toBe('<svg');
  });

  it('reads a page of unclosed comments once', { timeout: 10_000 }, () => {
    // The regex rescanned the rest of the page from every `<!--`: over a minute at this size.
    const html = '<!--'.repeat(300_000);
    expect(stripInertMarkup(html)).toBe(html);
  });

  it('reads a page of unclosed scripts and styles once', { timeout: 10_000 }, () => {
    const html = '<script><style x="1"><noscript>'.repeat(100_000);
    expect(stripInertMarkup(html)).toBe(html);
    const closedLast = `${'<script>'.repeat(200_000)}</script>kept`;
    expect(stripInertMarkup(closedLast)).toBe('kept');
  });

  it('ends a <![CDATA[ outside SVG at its first > (a bogus comment, as HTML tokenizes it), so the page after it stays', () => {
    expect(stripInertMarkup('<body><![CDATA[\n<div id="top"></div><p>Post text</p>')).toBe(
      '<body></div><p>Post text</p>',
    );
    // A closed one ends at the `>` of its `]]>`, the first `>` in it.
    expect(stripInertMarkup('a<![CDATA[x]]>b')).toBe('ab');
    expect(stripInertMarkup('a<![CDATA[x > y]]>b')).toBe('a y]]>b');
  });
});

describe('stripInertMarkup with noscriptFallback', () => {
  const post = `<div class="post"><p>${'The whole thread as served to clients without JavaScript. '.repeat(5)}</p></div>`;
  it('keeps, unwrapped, noscript content that holds more text than the rest of the page', () => {
    const html = `<body><div id="app"></div><noscript><img src="/px.gif"></noscript><noscript data-path="/t/1">${post}</noscript></body>`;
    expect(stripInertMarkup(html, { noscriptFallback: true })).toBe(`<body><div id="app"></div>${post}</body>`);
    // Off, or asked without the option: dropped as before.
    expect(stripInertMarkup(html)).toBe('<body><div id="app"></div></body>');
  });

  it('drops noscript content when the page shows more text itself, and short notes always', () => {
    const page = `<main><p>${'The article as every reader sees it, written in the page itself. '.repeat(8)}</p></main>`;
    const both = `<body>${page}<noscript>${post}</noscript></body>`;
    expect(stripInertMarkup(both, { noscriptFallback: true })).toBe(`<body>${page}</body>`);
    const note =
      '<body><div id="root"></div><noscript><p>You need to enable JavaScript to run this app.</p></noscript></body>';
    expect(stripInertMarkup(note, { noscriptFallback: true })).toBe('<body><div id="root"></div></body>');
  });

  it('drops scripts and styles inside the noscript content it keeps', () => {
    const html = `<body><noscript><script>track()</script><style>p{}</style>${post}</noscript></body>`;
    expect(stripInertMarkup(html, { noscriptFallback: true })).toBe(`<body>${post}</body>`);
  });
});
