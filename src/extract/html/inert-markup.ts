import { forwardFinder } from '../text-scan.ts';

const INERT_TAGS = ['script', 'style', 'svg', 'template', 'noscript'] as const;
/** Where an inert element or a comment may start; `\b` as in `<script\b` (so `<script-x>` counts too). */
const OPENING = /<(?:(script|style|svg|template|noscript)\b|!--)/gi;

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
export function stripInertMarkup(html: string): string {
  const finders = new Map<string, Finder>([
    ['--', forwardFinder((from) => html.indexOf('-->', from))],
    ['>', forwardFinder((from) => html.indexOf('>', from))],
  ]);
  for (const tag of INERT_TAGS) finders.set(tag, closingTagFinder(html, tag));
  const kept: string[] = [];
  let copied = 0;
  const opening = new RegExp(OPENING.source, OPENING.flags);
  for (let m = opening.exec(html); m !== null; m = opening.exec(html)) {
    const end = inertEnd(html, m.index, m[1]?.toLowerCase(), finders);
    if (end < 0) {
      opening.lastIndex = m.index + 1;
      continue;
    }
    kept.push(html.slice(copied, m.index));
    copied = end;
    opening.lastIndex = end;
  }
  kept.push(html.slice(copied));
  return kept.join('');
}
