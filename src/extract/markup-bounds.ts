/**
 * How much markup (HTML, XHTML, feeds) is handed to the parser, and so to Readability,
 * Turndown and the feed reader after it. Their cost grows with the elements of the page,
 * not its bytes: about 55 µs per element on a slow 2-core VM (linkedom builds a full DOM
 * node for each, Readability clones and rescans the page up to four times), and it was
 * super-linear past that (a 2 MB table took 40 s; 20 MB of `<p>&nbsp;<br></p>` froze the
 * process for over ten minutes). So the markup is cut before parsing, at whichever comes
 * first: MAX_MARKUP_CHARS characters or the start of the MAX_MARKUP_TAGS+1-th start tag.
 * What comes before the cut is extracted as usual and the answer says `truncated`.
 *
 * Measured on that VM (one core each), the worst shapes at these bounds finish in about
 * 2 s: 30,000 empty or dense elements, or 1,000,000 characters of attributes. The 61
 * pages of the extraction benchmark have at most 1,346 elements and 169,192 characters
 * once scripts and styles are dropped, so real articles are far from either bound; very
 * long pages (the largest encyclopedia articles) lose their end.
 */
export const MAX_MARKUP_CHARS = 1_000_000;
export const MAX_MARKUP_TAGS = 20_000;

/** A cut at the character bound moves back to the tag it splits when that tag starts this close. */
const TAG_LOOKBACK = 4096;

export interface BoundedMarkup {
  markup: string;
  truncated: boolean;
}

/** Index of the MAX_MARKUP_TAGS+1-th start tag (`<` then a letter) before `limit`, or -1. */
function pastLastTag(markup: string, limit: number, maxTags: number): number {
  let tags = 0;
  for (let i = markup.indexOf('<'); i >= 0 && i < limit; i = markup.indexOf('<', i + 1)) {
    const c = markup.charCodeAt(i + 1) | 0x20; // lower-cases ASCII letters
    if (c >= 0x61 && c <= 0x7a && ++tags > maxTags) return i;
  }
  return -1;
}

/** `markup` cut before the bounds above (never inside a tag it can avoid splitting, nor a surrogate pair). */
export function boundMarkup(markup: string, maxChars = MAX_MARKUP_CHARS, maxTags = MAX_MARKUP_TAGS): BoundedMarkup {
  const limit = Math.min(markup.length, maxChars);
  const atTag = pastLastTag(markup, limit, maxTags);
  if (atTag < 0 && limit === markup.length) return { markup, truncated: false };
  let cut = atTag;
  if (cut < 0) {
    const lt = markup.lastIndexOf('<', limit - 1);
    const splitsTag = lt >= 0 && limit - lt <= TAG_LOOKBACK && markup.lastIndexOf('>', limit - 1) < lt;
    cut = splitsTag ? lt : limit;
    const c = markup.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut -= 1;
  }
  return { markup: markup.slice(0, cut), truncated: true };
}
