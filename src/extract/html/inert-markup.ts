import { forwardFinder } from '../text-scan.ts';

const INERT_TAGS = ['script', 'style', 'svg', 'template', 'noscript'] as const;
/** Where an inert element or a comment may start; `\b` as in `<script\b` (so `<script-x>` counts too). */
const OPENING = /<(?:(script|style|svg|template|noscript)\b|!--|(!\[CDATA\[))/gi;

type Finder = (from: number) => number;

function closingTagFinder(html: string, tag: string): Finder {
  const close = new RegExp(`</${tag}\\s*>`, 'gi');
  return forwardFinder((from) => {
    close.lastIndex = from;
    return close.exec(html)?.index ?? -1;
  });
}

/** End (exclusive) of the inert element or comment opening at `start`, or -1 when it is not closed. */
function inertEnd(html: string, start: number, tag: string | undefined, finders: Map<string, Finder>): number {
  // Outside SVG and MathML, `<![CDATA[` opens a bogus comment that the first `>` ends (HTML's
  // tokenizer), not a section to `]]>`: the parser Scout uses would hide the rest of a page
  // behind a stray one (a forum engine writes one unclosed at the top of its body).
  if (tag === 'cdata') return (finders.get('>') as Finder)(start + 9) + 1 || -1;
  const find = finders.get(tag ?? '--') as Finder;
  if (tag === undefined) {
    const end = find(start + 4);
    return end < 0 ? -1 : end + 3;
  }
  const gt = finders.get('>') as Finder;
  const openEnd = gt(start + 1 + tag.length);
  const close = openEnd < 0 ? -1 : find(openEnd + 1);
  // The closing tag is `</tag\s*>`: it ends at the first `>` after its start.
  return close < 0 ? -1 : html.indexOf('>', close) + 1;
}

/** Characters of text a noscript fallback holds at least to be read as the page (an "enable JavaScript" note holds fewer). */
const FALLBACK_MIN_CHARS = 200;

/** Non-space characters outside tags: a cheap measure of how much text markup shows. */
function textChars(markup: string): number {
  let n = 0;
  let inTag = false;
  for (let i = 0; i < markup.length; i += 1) {
    const c = markup.charCodeAt(i);
    if (inTag) {
      if (c === 62) inTag = false; // >
    } else if (c === 60)
      inTag = true; // <
    else if (c > 32) n += 1;
  }
  return n;
}

interface Fallback {
  /** The kept part it sat before. */
  start: number;
  /** Its content, inert markup dropped. */
  inner: string;
  chars: number;
}

/**
 * Drops scripts, styles, inline SVG, templates, noscript fallbacks and comments from the
 * HTML source before it is parsed: on news pages they are often most of the bytes, and
 * building DOM nodes for them is wasted work (none of them is article text; the prune step
 * would remove them anyway). A script ends at the first `</script`, as the HTML tokenizer
 * ends it; an element or comment that is never closed stays. A scan rather than one regex
 * with `[\s\S]*?` per alternative: the regex re-reads the rest of the page from every
 * unclosed `<!--` or `<script>`, which is quadratic. Each delimiter search here remembers
 * its last answer, so the page is read a bounded number of times.
 */
export function stripInertMarkup(html: string, o: { noscriptFallback?: boolean } = {}): string {
  const finders = new Map<string, Finder>([
    ['--', forwardFinder((from) => html.indexOf('-->', from))],
    ['>', forwardFinder((from) => html.indexOf('>', from))],
  ]);
  for (const tag of INERT_TAGS) finders.set(tag, closingTagFinder(html, tag));
  const kept: string[] = [];
  const fallbacks: Fallback[] = [];
  let copied = 0;
  const opening = new RegExp(OPENING.source, OPENING.flags);
  for (let m = opening.exec(html); m !== null; m = opening.exec(html)) {
    const end = inertEnd(html, m.index, m[2] === undefined ? m[1]?.toLowerCase() : 'cdata', finders);
    if (end < 0) {
      opening.lastIndex = m.index + 1;
      continue;
    }
    kept.push(html.slice(copied, m.index));
    if (o.noscriptFallback === true && m[1]?.toLowerCase() === 'noscript') {
      const open = html.indexOf('>', m.index) + 1;
      const inner = stripInertMarkup(html.slice(open, html.lastIndexOf('<', end - 1)));
      const chars = textChars(inner);
      if (chars >= FALLBACK_MIN_CHARS) fallbacks.push({ start: kept.length, inner, chars });
    }
    copied = end;
    opening.lastIndex = end;
  }
  kept.push(html.slice(copied));
  if (fallbacks.length === 0) return kept.join('');
  return withFallbacks(kept, fallbacks);
}

/**
 * Scout reads pages as a client without JavaScript, which is what noscript content is
 * written for. Most noscript blocks are a tracking pixel or an "enable JavaScript" note
 * (dropped), but some sites serve the whole page there and an empty application shell
 * beside it (Discourse forums put every post of a thread in `<noscript>`). When the
 * noscript blocks that hold real text (FALLBACK_MIN_CHARS each) hold more than everything
 * else on the page, they are the page: their content is kept in place, unwrapped.
 */
function withFallbacks(kept: string[], fallbacks: Fallback[]): string {
  const outside = textChars(kept.join(''));
  const inside = fallbacks.reduce((n, f) => n + f.chars, 0);
  if (inside <= outside) return kept.join('');
  const out: string[] = [];
  let next = 0;
  for (const [i, part] of kept.entries()) {
    // Each fallback sat between kept[start - 1] and kept[start].
    while (next < fallbacks.length && fallbacks[next]!.start === i) out.push(fallbacks[(next += 1) - 1]!.inner);
    out.push(part);
  }
  return out.join('');
}
