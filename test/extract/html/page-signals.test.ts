import { describe, expect, it } from 'vitest';
import { decodeEntities, pageSignals } from '../../../src/extract/html/page-signals.ts';

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
});
