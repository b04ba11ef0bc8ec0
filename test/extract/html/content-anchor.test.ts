import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { anchorPath, contentAnchor } from '../../../src/extract/html/content-anchor.ts';

const bodyOf = (html: string): Element =>
  (parseHTML(`<!doctype html><html><body>${html}</body></html>`).document as unknown as Document).body;
const SENTENCE = 'A sentence of running text long enough to count as prose in the article.';

describe('content anchor', () => {
  it('is the parent of the paragraphs with most text', () => {
    const body = bodyOf(
      `<div id="side"><p>${SENTENCE}</p></div><div id="main"><p>${SENTENCE}</p><p>${SENTENCE}</p></div>`,
    );
    expect(contentAnchor(body)?.id).toBe('main');
  });

  it('counts text written without paragraphs (<br>-separated, inline formatting included), not link text', () => {
    const body = bodyOf(
      `<div id="links">${Array.from({ length: 12 }, (_, i) => `<a href="/${i}">A link with a long title number ${i}</a><br>`).join('')}</div>` +
        `<div id="post">${SENTENCE}<br><br><b>${SENTENCE}</b><br><br>${SENTENCE}</div>` +
        `<div id="short"><p>${SENTENCE}</p></div>`,
    );
    expect(contentAnchor(body)?.id).toBe('post');
  });

  it('leaves a comment thread out, however long: the short article above it is the anchor', () => {
    const comments = Array.from({ length: 6 }, () => `<li class="comment"><p>${SENTENCE} ${SENTENCE}</p></li>`).join(
      '',
    );
    const body = bodyOf(
      `<div id="story"><p>${SENTENCE}</p><p>${SENTENCE}</p></div><section id="disqus_thread"><ol class="commentlist">${comments}</ol></section>`,
    );
    expect(contentAnchor(body)?.id).toBe('story');
  });

  it('ignores script and style text, and has no anchor on a page without prose', () => {
    expect(
      contentAnchor(bodyOf(`<script>var x = "${SENTENCE}";</script><style>p{}</style><a href="/">${SENTENCE}</a>`)),
    ).toBeNull();
  });

  it('path: the anchor and its ancestors below body', () => {
    const body = bodyOf(`<div id="outer"><div id="main"><p>${SENTENCE}</p></div></div>`);
    expect([...anchorPath(body)].map((e) => e.id)).toEqual(['main', 'outer']);
  });
});
