import { forwardFinder } from './text-scan.ts';
import { must } from '../domain/must.ts';

/**
 * Caps how deep the parser's stack of open elements can grow. htmlparser2 (linkedom's
 * parser, HTML and XML) keeps that stack in an array it `unshift`s, `shift`s and searches
 * with `indexOf`, so each tag costs time in proportion to the depth: 130,000 unclosed `<b>`
 * (400 KB, about a kilobyte gzipped) took 9 s to parse. This pass follows the parser's
 * stack with the same rules (void elements, start tags that close an open `p`, `li`, `td`…,
 * end tags that close everything up to their match) and drops start tags that would open
 * past MAX_OPEN_ELEMENTS. Their content stays, in the element above. It counts every `<x`
 * as a tag, even inside an attribute value or an unclosed comment, so it errs towards
 * seeing more depth than the parser does, never less.
 */
export const MAX_OPEN_ELEMENTS = 256;

const TAG = /<(\/?)([a-zA-Z][^\s/>]*)/g;

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** htmlparser2's `openImpliesClose`: a start tag closes these while they are the current element. */
const IMPLIED_CLOSE = new Map<string, Set<string>>(
  Object.entries({
    tr: ['tr', 'th', 'td'],
    th: ['th'],
    td: ['thead', 'th', 'td'],
    body: ['head', 'link', 'script'],
    li: ['li'],
    p: P,
    h1: P,
    h2: P,
    h3: P,
    h4: P,
    h5: P,
    h6: P,
    select: FORM,
    input: FORM,
    output: FORM,
    button: FORM,
    datalist: FORM,
    textarea: FORM,
    option: ['option'],
    optgroup: ['optgroup', 'option'],
    dd: ['dd', 'dt'],
    dt: ['dd', 'dt'],
    address: P,
    article: P,
    aside: P,
    blockquote: P,
    details: P,
    div: P,
    dl: P,
    fieldset: P,
    figcaption: P,
    figure: P,
    footer: P,
    form: P,
    header: P,
    hr: P,
    main: P,
    nav: P,
    ol: P,
    pre: P,
    section: P,
    table: P,
    ul: P,
    rt: ['rt', 'rp'],
    rp: ['rt', 'rp'],
    tbody: ['thead', 'tbody'],
    tfoot: ['thead', 'tbody'],
  }).map(([tag, closes]) => [tag, new Set(closes)]),
);

/** Opens `name` on `stack` the way htmlparser2 does; false when it would go past the cap. */
function open(stack: string[], name: string, xml: boolean, selfClosing: boolean): boolean {
  if (!xml) {
    const closes = IMPLIED_CLOSE.get(name);
    for (let top = stack.at(-1); closes !== undefined && top !== undefined && closes.has(top); top = stack.at(-1)) {
      stack.pop();
    }
    if (VOID.has(name)) return true;
  } else if (selfClosing) {
    return true;
  }
  if (stack.length >= MAX_OPEN_ELEMENTS) return false;
  stack.push(name);
  return true;
}

/** `markup` with the start tags that would nest past MAX_OPEN_ELEMENTS removed (see above). */
export function limitNesting(markup: string, options: { xml: boolean }): string {
  const { xml } = options;
  const tag = new RegExp(TAG.source, TAG.flags);
  const nextGt = forwardFinder((from) => markup.indexOf('>', from));
  const stack: string[] = [];
  const kept: string[] = [];
  let copied = 0;
  for (let m = tag.exec(markup); m !== null; m = tag.exec(markup)) {
    const tagName = must(m[2], 'the name of a tag');
    const name = xml ? tagName : tagName.toLowerCase();
    if (m[1] === '/') {
      const at = stack.lastIndexOf(name);
      if (at >= 0) stack.length = at;
      continue;
    }
    const gt = nextGt(tag.lastIndex);
    if (gt < 0) break;
    if (!open(stack, name, xml, markup[gt - 1] === '/')) {
      kept.push(markup.slice(copied, m.index));
      copied = gt + 1;
      tag.lastIndex = copied;
    }
  }
  if (copied === 0) return markup;
  kept.push(markup.slice(copied));
  return kept.join('');
}
