/**
 * Bounds on the parsed page that keep the libraries after the parser near linear time.
 * Measured on this stack: Readability's conditional cleaning reads the text of every
 * descendant of every candidate, cubic in nesting depth (1,000 nested `<div>`s, 5 KB,
 * took 7 s); Turndown recurses per level and overflows the call stack near 2,000 levels
 * (a RangeError, which would surface as a 500). And Readability runs two regexes that are
 * quadratic in one long token on image attributes: `srcsetUrl` on every `srcset` and the
 * lazy-image test (`^\s*\S+\.(jpg|jpeg|png|webp)\S*\s*$`) on the other attributes of
 * images without a source.
 */

/**
 * Elements deeper than this (the root element is depth 0) keep only their text. Pages in
 * the extraction set nest at most 30 levels; past 100, what remains is broken markup
 * (unclosed inline tags nest everything after them).
 */
export const MAX_DEPTH = 100;

/** Longest whitespace-free run kept in an image attribute; longer values are junk, not URLs. */
export const MAX_IMAGE_TOKEN = 1024;

const IMAGE_TAGS = new Set(['IMG', 'PICTURE', 'SOURCE', 'FIGURE']);
/** Attributes Turndown reads from images, whatever their length (only `src` can hold a data URL). */
const KEPT_IMAGE_ATTRIBUTES = new Set(['src', 'alt', 'title']);

function longestToken(value: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    run = c === 32 || (c >= 9 && c <= 13) ? 0 : run + 1;
    if (run > longest) longest = run;
  }
  return longest;
}

function trimImageAttributes(el: Element): void {
  for (const name of el.getAttributeNames()) {
    if (KEPT_IMAGE_ATTRIBUTES.has(name)) continue;
    if (longestToken(el.getAttribute(name) ?? '') > MAX_IMAGE_TOKEN) el.removeAttribute(name);
  }
}

/**
 * Flattens everything below `maxDepth` to text and drops image attributes with an
 * oversized token (see above). One iterative walk: the page may be deeper than the stack.
 */
export function limitDom(root: Element, maxDepth = MAX_DEPTH): void {
  const stack: [Element, number][] = [[root, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [el, depth] = item;
    if (IMAGE_TAGS.has(el.tagName)) trimImageAttributes(el);
    if (depth >= maxDepth) {
      // Setting the text replaces the children past the depth limit with their text.
      if (el.firstElementChild !== null) {
        const text = el.textContent;
        el.textContent = text;
      }
      continue;
    }
    for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) stack.push([c, depth + 1]);
  }
}
