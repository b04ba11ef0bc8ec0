import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { classWords, furnitureKind } from '../../../src/extract/html/class-words.ts';
import { pruneBoilerplate } from '../../../src/extract/html/prune-boilerplate.ts';

const PARAGRAPHS = Array.from(
  { length: 4 },
  (_, i) => `<p>Paragraph ${i} of the article has enough words to count as real content for the anchor rule here.</p>`,
).join('');

function pruned(body: string): string {
  const { document } = parseHTML(`<html><body>${body}</body></html>`);
  pruneBoilerplate(document.body as unknown as Element);
  return document.body.innerHTML;
}

describe('class words', () => {
  it('splits camelCase, hyphens and underscores into words', () => {
    expect(classWords('articleByline__name sr-only')).toBe('article byline name sr only');
    expect(furnitureKind(classWords('signupBackground___27LhS'))).toBe('container');
    expect(furnitureKind(classWords('e-image__meta'))).toBe('small');
  });

  it('does not match furniture words inside other words', () => {
    expect(furnitureKind(classWords('shared-content blueprint commentary'))).toBeNull();
    expect(furnitureKind(classWords('commentator-column unrelated'))).toBeNull();
  });

  it('knows furniture words glued to another by old templates', () => {
    for (const names of ['commentbody by-dan', 'relatedposts', 'sidebarleft', 'footerlinks', 'newslettersignup']) {
      expect(furnitureKind(classWords(names)), names).toBe('container');
    }
  });
});

describe('pruneBoilerplate', () => {
  it('removes scripts, navigation, share bars, comments and cookie banners', () => {
    const html = pruned(
      `<div class="cookie-banner">We use cookies</div><nav><a href="/">Home</a></nav>` +
        `<div class="content">${PARAGRAPHS}<div class="share-tools"><a href="#">Share</a></div></div>` +
        `<section id="comments"><p>First! This comment is long enough to look like a paragraph of text.</p></section>` +
        `<script>var x = 1;</script><footer>Footer links</footer>`,
    );
    expect(html).toContain('Paragraph 3');
    for (const gone of ['cookies', 'Home', 'Share', 'First!', 'var x', 'Footer']) expect(html).not.toContain(gone);
  });

  it('removes short captions and credits but keeps long elements with such classes', () => {
    const long = 'A long passage. '.repeat(40);
    const html = pruned(
      `<div class="story">${PARAGRAPHS}<figure><img src="a.jpg"><figcaption>Caption</figcaption></figure>` +
        `<span class="photo-credit">Photo: AP</span><div class="author-note">${long}</div></div>`,
    );
    expect(html).not.toContain('Caption');
    expect(html).not.toContain('Photo: AP');
    expect(html).toContain('A long passage.');
    expect(html).toContain('a.jpg');
  });

  it('never removes the element holding the article text or its ancestors', () => {
    const html = pruned(`<div class="page and-w-sidebar"><div class="body_overlay">${PARAGRAPHS}</div></div>`);
    expect(html).toContain('Paragraph 0');
  });

  it('marks code blocks with their language before the wrappers are lost', () => {
    const html = pruned(`${PARAGRAPHS}<div class="highlight highlight-source-go"><pre>fmt.Println()</pre></div>`);
    expect(html).toContain('data-lang="go"');
  });
});
