import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { codeText, shieldCodeBlocks, unguard } from '../../../src/extract/html/code-blocks.ts';
import { defined } from '../../helpers/defined.ts';

function root(inner: string): Element {
  const { document } = parseHTML(`<html><body><div id="root">${inner}</div></body></html>`);
  return document.getElementById('root') as unknown as Element;
}

/** `depth` nested `<b>` elements under `el`, built directly (the parser is slow on deep input). */
function nested(el: Element, depth: number): Element {
  let at = el;
  for (let i = 0; i < depth; i += 1) at = at.appendChild((el.ownerDocument as Document).createElement('b'));
  at.textContent = 'x';
  return el;
}

describe('code block shielding', () => {
  it('reads code text with <br> as line breaks, without recursion', () => {
    const el = root('<pre><span>a</span><br><b><i>b</i></b><!-- c -->d</pre>');
    expect(codeText(el.querySelector('pre') as Element)).toBe('a\nbd');
    expect(codeText(nested(root('<pre></pre>').querySelector('pre') as Element, 50_000))).toBe('x');
  });

  it('leaves one text node per block, whitespace guarded except short runs at the ends', () => {
    const el = root('<p>x</p><pre class="lang-py"><code>  a  b\n c  </code></pre>');
    shieldCodeBlocks(el);
    const pre = el.querySelector('pre') as Element;
    expect(pre.childNodes.length).toBe(1);
    expect(pre.getAttribute('data-lang')).toBe('py');
    expect(pre.textContent?.slice(2, -2)).not.toMatch(/\s\s/);
    expect(unguard(pre.textContent ?? '')).toBe('  a  b\n c  ');
    expect(pre.textContent?.startsWith('  a')).toBe(true);
  });

  it('keeps an empty marker for elements that rules above the block look for', () => {
    const el = root('<a href="/x"><pre><img src="i.png"> <div>code</div></pre></a><pre> <br> </pre>');
    shieldCodeBlocks(el);
    const blocks = Array.from(el.querySelectorAll('pre'));
    const [first, second] = [defined(blocks[0], 'a first pre'), defined(blocks[1], 'a second pre')];
    expect(first.querySelector('img')?.getAttribute('src')).toBeNull();
    expect(first.querySelector('div')?.textContent).toBe('');
    expect(second.textContent).toBe('');
    expect(second.querySelector('br')).not.toBeNull();
    expect(el.querySelector('a')?.querySelector('div')).not.toBeNull();
  });

  it('unwraps a <code> around a block and shields nested blocks once', () => {
    const el = root('<code><pre>a<pre>b</pre></pre>c</code>');
    shieldCodeBlocks(el);
    expect(el.querySelector('code')).toBeNull();
    expect(el.querySelectorAll('pre').length).toBe(1);
    expect(el.textContent).toBe('abc');
  });
});
