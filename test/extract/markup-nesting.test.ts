import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { MAX_OPEN_ELEMENTS, limitNesting } from '../../src/extract/markup-nesting.ts';

function depth(el: Element): number {
  let max = 0;
  const stack: [Element, number][] = [[el, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    max = Math.max(max, item[1]);
    for (let c = item[0].firstElementChild; c !== null; c = c.nextElementSibling) stack.push([c, item[1] + 1]);
  }
  return max;
}

describe('limitNesting', () => {
  it('leaves documents alone whose elements close, explicitly or by the parser rules', () => {
    const items = '<li>item'.repeat(5_000);
    const rows = '<tr><td>a<td>b'.repeat(2_000);
    const html = `<html><body><ul>${items}</ul>${'<p>para'.repeat(5_000)}<table>${rows}</table>${'<br><img src=x>'.repeat(1_000)}`;
    expect(limitNesting(html, { xml: false })).toBe(html);
    const xml = `<rss><channel>${'<item><title>t</title><link/></item>'.repeat(5_000)}</channel></rss>`;
    expect(limitNesting(xml, { xml: true })).toBe(xml);
  });

  it('drops start tags past the cap and keeps their text', () => {
    const html = `${'<b class="x">'.repeat(MAX_OPEN_ELEMENTS + 10)}deep text`;
    const limited = limitNesting(html, { xml: false });
    expect(limited).toBe(`${'<b class="x">'.repeat(MAX_OPEN_ELEMENTS)}deep text`);
    const balanced = `${'<i>'.repeat(MAX_OPEN_ELEMENTS)}${'</i>'.repeat(MAX_OPEN_ELEMENTS)}`.repeat(3);
    expect(limitNesting(balanced, { xml: false })).toBe(balanced);
  });

  it('parses 130,000 unclosed tags (400 KB) quickly and no deeper than the cap', { timeout: 10_000 }, () => {
    // htmlparser2 spends time proportional to its stack depth on every tag: 9 s unbounded.
    const html = `<html><body><p>${'<b>'.repeat(133_000)}x`;
    const { document } = parseHTML(limitNesting(html, { xml: false }));
    expect(document.body.textContent).toBe('x');
    expect(depth(document.documentElement)).toBeLessThanOrEqual(MAX_OPEN_ELEMENTS + 2);
  });
});
