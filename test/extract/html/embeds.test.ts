import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { isEmbed } from '../../../src/extract/html/embeds.ts';
import { findBoilerplate } from '../../../src/extract/html/prune-boilerplate.ts';

const element = (attrs: string): Element =>
  parseHTML(`<!doctype html><html><body><div ${attrs}>x</div></body></html>`).document.body.firstElementChild!;
const PARA =
  '<p>The council approved the new cycle lanes on Tuesday after a two-hour debate in the town hall, and work starts in May.</p>';

describe('embeds', () => {
  it('knows embedded posts and product boxes by their class words', () => {
    for (const attrs of [
      'class="twitter-tweet embed-social"',
      'class="instagram-media"',
      'class="tiktok-embed"',
      'class="fb-post"',
      'class="oembed-wrapper widget"',
      'class="product-box widget-product"',
      'id="productCard"',
    ]) {
      expect(isEmbed(element(attrs)), attrs).toBe(true);
    }
  });

  it('does not take related, paid or timeline blocks, or plain furniture, for embeds', () => {
    for (const attrs of [
      'class="related-products widget-product"',
      'class="sponsored-embed"',
      'class="twitter-timeline widget"',
      'class="more-tweets"',
      'class="share social"',
      'class="ad-slot"',
      '',
    ]) {
      expect(isEmbed(element(attrs)), attrs).toBe(false);
    }
  });

  it('keeps an embed inside the article text and renames it for Readability; one outside the text is pruned', () => {
    const { document } = parseHTML(
      `<!doctype html><html><body><div id="text">${PARA}<blockquote class="twitter-tweet embed-social"><p>A quoted post.</p></blockquote>${PARA}${PARA}</div>` +
        `<div class="sidebar"><blockquote class="twitter-tweet embed-social"><p>Follow our feed.</p></blockquote></div></body></html>`,
    );
    const doomed = findBoilerplate(document.body);
    const [inside, outside] = Array.from(document.querySelectorAll('blockquote'));
    expect(doomed.some((el) => el === inside || el.contains(inside!))).toBe(false);
    expect(inside!.getAttribute('class')).toBe('embedded');
    expect(doomed.some((el) => el.contains(outside!))).toBe(true);
  });
});
