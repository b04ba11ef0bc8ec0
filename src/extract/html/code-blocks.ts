import { isSpace, skipSpace } from '../text-scan.ts';
import { codeLanguage } from './code-language.ts';

/**
 * Code blocks made safe for Turndown. Turndown collapses whitespace everywhere except in
 * `<pre>`, and some of its regexes are quadratic on the long whitespace runs that code
 * keeps: its edge-whitespace match (`(\s*?)([ \t\r\n]*)$`, mixmark-io/turndown#505) runs on
 * every text node and inline element, and its inline-code rule (`^ .*?[^ ].* $`) on every
 * `<code>` with siblings. So before conversion each `<pre>` is reduced to one text node in
 * which a guard character precedes every whitespace character but short runs at the ends
 * (so no long run is left), and the code-block rule removes the guards again. Turndown
 * never sees the markup inside.
 */

const GUARD = '\uFDD0';
const GUARDS = new RegExp(GUARD, 'g');

/**
 * Elements whose presence inside a `<pre>` rules above it look for: Turndown's blank test
 * (void and "meaningful when blank" elements), the empty-link rule (`img`) and the
 * block-link rule (blocks). An empty one of each kind found stays in the shielded block.
 */
const MARKERS = [
  'area',
  'base',
  'br',
  'col',
  'command',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'a',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'th',
  'td',
  'iframe',
  'script',
  'audio',
  'video',
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'section',
  'article',
  'figure',
  'header',
  'footer',
  'blockquote',
];
/**
 * Whitespace runs at the ends of a block's text this short stay unguarded, for the
 * edge-whitespace rules of the elements around it.
 */
const MAX_EDGE = 64;

const guardAll = (text: string): string => text.replace(/\s/g, `${GUARD}$&`);
const guardLong = (edge: string): string => (edge.length <= MAX_EDGE ? edge : guardAll(edge));

/** Guards every whitespace character except short runs at the ends. */
function guard(text: string): string {
  const start = skipSpace(text, 0);
  let end = text.length;
  while (end > start && isSpace(text.charAt(end - 1))) end -= 1;
  return guardLong(text.slice(0, start)) + guardAll(text.slice(start, end)) + guardLong(text.slice(end));
}

/** Text with the guards of shielded code (and any U+FDD0 noncharacter of the page) removed. */
export const unguard = (text: string): string => text.replace(GUARDS, '');

/**
 * Text of a code block with `<br>` kept as line breaks (some highlighters emit them).
 * A walk rather than recursion: a page can nest elements deeper than the call stack.
 */
export function codeText(root: Node): string {
  let out = '';
  let node: Node | null = root.firstChild;
  if (root.nodeType === 3) return root.nodeValue ?? '';
  while (node !== null && node !== root) {
    if (node.nodeType === 3) out += node.nodeValue ?? '';
    else if (node.nodeName === 'BR') out += '\n';
    if (node.firstChild !== null && node.nodeName !== 'BR') {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node !== root && node.nextSibling === null) node = node.parentNode;
    node = node === null || node === root ? null : node.nextSibling;
  }
  return out;
}

/** `<code>` elements around a `<pre>` (invalid nesting) would put the whole block through the inline-code rule. */
function unwrapCodeAncestors(pre: Element, root: Element): void {
  const wrappers: Element[] = [];
  for (let a = pre.parentElement; a !== null && a !== root; a = a.parentElement) {
    if (a.tagName === 'CODE') wrappers.push(a);
  }
  for (const code of wrappers) code.replaceWith(...Array.from(code.childNodes));
}

/**
 * Replaces the content of every outermost `<pre>` under `root` with its guarded text and
 * an empty element of each marker kind it held, and records its language in `data-lang`
 * (the class names that tell it go with the markup). A whitespace-only block keeps no text.
 */
export function shieldCodeBlocks(root: Element): void {
  const blocks = Array.from(root.querySelectorAll('pre')).filter((pre) => pre.parentElement?.closest('pre') == null);
  for (const pre of blocks) {
    const text = codeText(pre);
    pre.setAttribute('data-lang', codeLanguage(pre) ?? 'none');
    const inside = new Set(Array.from(pre.querySelectorAll('*'), (el) => el.localName));
    const markers = MARKERS.filter((tag) => inside.has(tag));
    pre.textContent = text.trim() === '' ? '' : guard(text);
    for (const tag of markers) pre.appendChild((pre.ownerDocument as Document).createElement(tag));
    unwrapCodeAncestors(pre, root);
  }
}
