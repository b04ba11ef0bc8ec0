import { describe, expect, it } from 'vitest';
import { findAppShell, MAX_SHELL_TEXT } from '../../../src/extract/html/app-shell.ts';
import { pageSignals } from '../../../src/extract/html/page-signals.ts';
import { READABLE_CASES, SHELL_CASES, unreadableFixture } from '../unreadable-fixtures.ts';

const detect = (html: string) => findAppShell(pageSignals(html));

describe('findAppShell', () => {
  it.each(SHELL_CASES)('recognises $name with $textChars characters of text', ({ name, textChars }) => {
    expect(detect(unreadableFixture('shell', name))).toEqual({ textChars });
  });

  it.each(READABLE_CASES)('leaves $name alone', ({ name }) => {
    expect(detect(unreadableFixture('readable', name))).toBeNull();
  });

  it('leaves a server-rendered Next.js page alone: its text is in the HTML, __NEXT_DATA__ or not', () => {
    const html = unreadableFixture('readable', 'next-server-rendered');
    expect(html).toContain('__NEXT_DATA__');
    expect(detect(html)).toBeNull();
  });

  it('needs a script: an empty root without one is an empty page, not an app', () => {
    expect(detect('<title>Empty</title><body><div id="root"></div></body>')).toBeNull();
    expect(
      detect('<title>App</title><script type="module" src="/main.js"></script><body><div id="root"></div></body>'),
    ).toEqual({ textChars: 0 });
  });

  it('takes the mount id exactly (a #root-menu or #app-container is layout) and counts the text outside it', () => {
    const script = '<script src="/bundle.js"></script>';
    expect(detect(`${script}<body><div id="app-container"></div></body>`)).toBeNull();
    expect(detect(`${script}<body><p>Acme</p><div class="x" id='__nuxt' data-v="1"></div></body>`)).toEqual({
      textChars: 4,
    });
    expect(
      detect(`${script}<body><p>${'word '.repeat(MAX_SHELL_TEXT / 4)}</p><div id="root"></div></body>`),
    ).toBeNull();
  });

  it("counts only the text outside the page's header, navigation, aside and footer: a shell's chrome is not its content", () => {
    const script = '<script src="/bundle.js"></script>';
    const links = Array.from({ length: 60 }, (_, i) => `<a href="/help/${i}">Help topic number ${i}</a>`).join(', ');
    const chrome = `<header><nav>${links}</nav></header><aside>${links}</aside><footer>${links}</footer>`;
    expect(detect(`${script}<body>${chrome}<div id="root"></div><p>Loading</p></body>`)).toEqual({ textChars: 7 });
    // The same chrome around content the server rendered is a page.
    const article = `<main><p>${'The harbour reopened after the storm. '.repeat(10)}</p></main>`;
    expect(detect(`${script}<body>${chrome}<div id="root"></div>${article}</body>`)).toBeNull();
  });

  it("does not take Disqus's noscript note on a short page for an app's", () => {
    const html =
      '<script src="/embed.js"></script><body><p>Short note.</p><noscript>Please enable JavaScript to view the comments powered by Disqus.</noscript></body>';
    expect(detect(html)).toBeNull();
  });
});
