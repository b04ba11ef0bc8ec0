import { describe, expect, it } from 'vitest';
import { contentText, decodeEntities, pageSignals, withoutLandmarks } from '../../../src/extract/html/page-signals.ts';

describe('pageSignals', () => {
  it('reads the title and the body text without scripts, styles, noscript or comments', () => {
    const s = pageSignals(
      '<html><head><title> Just a\n moment&hellip; </title><style>p{}</style></head><body><script>var a = "<p>x</p>";</script><noscript>Enable JS</noscript><!-- note --><h1>Hello</h1>\n<p>world &amp; more</p></body></html>',
    );
    expect(s.title).toBe('Just a moment…');
    expect(s.text).toBe('Hello world & more');
  });

  it('keeps a lone < that opens no tag and ends the text at a tag never closed', () => {
    expect(pageSignals('<body>1 < 2 and 3<4 <b>bold</b> <a href="x').text).toBe('1 < 2 and 3<4 bold');
  });

  it('does not count the title of a page without head or body as text', () => {
    expect(pageSignals('<title>Only a title</title>Some text').text).toBe('Some text');
  });

  it('decodes numeric entities as Akamai writes them, and leaves unknown names', () => {
    expect(decodeEntities('Reference&#32;&#35;18&#46;7d&#x2e;3 &bogus; &#0;')).toBe('Reference #18.7d.3 &bogus; &#0;');
  });

  it('stays linear on markup made of unclosed tags', () => {
    const hostile = `${'<a'.repeat(200_000)}<title${'<'.repeat(200_000)}`;
    expect(pageSignals(hostile).text).toBe('');
  });

  it('gives the text outside the header, nav, aside and footer landmarks beside the whole text', () => {
    const s = pageSignals(
      '<body><header>Site <nav>Home Shop</nav></header><main><p>The page.</p><aside>Ads</aside></main><footer>Help</footer></body>',
    );
    expect(s.text).toBe('Site Home Shop The page. Ads Help');
    expect(contentText(s)).toBe('The page.');
  });
});

describe('withoutLandmarks', () => {
  it('ends each landmark at its own closing tag, nested ones of the same name counted', () => {
    expect(withoutLandmarks('a<nav>b<nav>c</nav>d</nav>e<footer class="f">g</footer >h')).toBe('a e h');
    expect(withoutLandmarks('<HEADER>X</HEADER><Aside id=1>Y</aside>z')).toBe('  z');
  });

  it('keeps custom elements that begin with a landmark name, and a landmark never closed', () => {
    expect(withoutLandmarks('<nav-bar>a</nav-bar><header-x>b</header-x>')).toBe(
      '<nav-bar>a</nav-bar><header-x>b</header-x>',
    );
    expect(withoutLandmarks('<p>a</p><footer>b <navigation>c')).toBe('<p>a</p><footer>b <navigation>c');
  });

  it('stays linear on landmarks opened and never closed', () => {
    const hostile = `${'<nav>'.repeat(100_000)}x`;
    expect(withoutLandmarks(hostile)).toBe(hostile);
  });
});
