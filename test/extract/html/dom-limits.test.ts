import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_TOKEN, limitDom } from '../../../src/extract/html/dom-limits.ts';

function body(inner: string): Element {
  return parseHTML(`<html><body>${inner}</body></html>`).document.body as unknown as Element;
}

describe('limitDom', () => {
  it('flattens elements below the depth limit to their text', () => {
    const el = body(
      '<div><p>keep <a href="/x">link</a></p><div><div><div><b>deep <i>text</i></b></div></div></div></div>',
    );
    limitDom(el, 5);
    expect(el.querySelector('a')?.getAttribute('href')).toBe('/x');
    expect(el.querySelector('b')).not.toBeNull();
    expect(el.querySelector('i')).toBeNull();
    expect(el.textContent).toBe('keep linkdeep text');
  });

  it('drops image attributes with an oversized token and keeps the rest', () => {
    const long = 'a'.repeat(MAX_IMAGE_TOKEN + 1);
    const el = body(`<img src="/${long}.png" alt="x" srcset="${long} 2x" data-src="/ok.jpg" data-junk="${long}.jpg">`);
    limitDom(el);
    const img = el.querySelector('img') as Element;
    expect(img.getAttributeNames().sort()).toEqual(['alt', 'data-src', 'src']);
  });

  it('walks a tree deeper than the call stack', () => {
    const el = body('');
    let at = el;
    for (let i = 0; i < 50_000; i += 1) at = at.appendChild((el.ownerDocument as Document).createElement('span'));
    at.textContent = 'x';
    limitDom(el);
    expect(el.querySelectorAll('span').length).toBe(100);
    expect(el.textContent).toBe('x');
  });
});
