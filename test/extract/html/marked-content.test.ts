import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { markedContent } from '../../../src/extract/html/marked-content.ts';

const TEXT = 'The council approved the new cycle lanes on Tuesday after a long debate in the town hall.';
const bodyOf = (inner: string): Element => parseHTML(`<!doctype html><html><body>${inner}</body></html>`).document.body;

describe('markedContent: the one element a page marks as its article body', () => {
  it('finds itemprop=articleBody and the body class names of blog engines and CMSs, split or glued', () => {
    for (const attrs of [
      'itemprop="articleBody"',
      'class="post-body entry-content"',
      'class="article__body"',
      'id="storyBody"',
      'class="articletext"',
      'class="ArticleText"',
    ]) {
      const body = bodyOf(
        `<div class="sidebar-text"><p>${TEXT}</p></div><div ${attrs}><p>${TEXT}</p><p>${TEXT}</p></div>`,
      );
      expect(markedContent(body)?.textContent, attrs).toContain(TEXT);
      expect(markedContent(body)?.parentElement, attrs).toBe(body);
    }
  });

  it('counts nested marks as one, the outermost', () => {
    const body = bodyOf(
      `<article class="entry-content"><div class="post-body"><p>${TEXT}</p><p>${TEXT}</p></div></article>`,
    );
    expect(markedContent(body)?.tagName).toBe('ARTICLE');
  });

  it('says nothing when several blocks with text are marked (a listing of posts, or a class used for style)', () => {
    expect(
      markedContent(
        bodyOf(
          `<div class="entry-content"><p>${TEXT}</p><p>${TEXT}</p></div><div class="entry-content"><p>${TEXT}</p><p>${TEXT}</p></div>`,
        ),
      ),
    ).toBeNull();
    expect(
      markedContent(
        bodyOf(
          `<table><tr><td class="ArticleText">Local business directory: support the shops in town</td><td class="ArticleText"><p>${TEXT}</p><p>${TEXT}</p></td></tr></table>`,
        ),
      ),
    ).toBeNull();
  });

  it('ignores an empty placeholder, a teaser too short to be the article, and a paragraph named as the body', () => {
    const article = `<p>${TEXT}</p><p>${TEXT}</p>`;
    expect(
      markedContent(bodyOf(`<div class="post-content"></div><div class="story-body">${article}</div>`))?.className,
    ).toBe('story-body');
    expect(markedContent(bodyOf(`<div class="entry-content"><p>Short teaser.</p></div>`))).toBeNull();
    expect(markedContent(bodyOf(`<p id="story-body">${TEXT} ${TEXT}</p><p id="story-body2">${TEXT}</p>`))).toBeNull();
  });

  it('does not read furniture words or other body-ish names as the article body', () => {
    for (const cls of ['content', 'body', 'post', 'entry-meta', 'article-list', 'postscript']) {
      expect(markedContent(bodyOf(`<div class="${cls}"><p>${TEXT}</p><p>${TEXT}</p></div>`)), cls).toBeNull();
    }
  });
});
