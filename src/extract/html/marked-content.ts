import { elementWords } from './class-words.ts';
import { textLength } from './text-stats.ts';

/**
 * Publishers' own markup for the article's text: schema.org's `itemprop="articleBody"`, and
 * the class names blog engines and CMSs give the body (`entry-content`, `post-body`,
 * `article__body`, `storyBody`, `articletext`).
 */
const BODY_WORDS = /\b(?:entry|post|article|story)\s?(?:content|body|text)\b/;

/** A paragraph or a line is one block of the article, never the whole of it (`<p id="story-body">`). */
const NOT_CONTAINERS = new Set([
  'P',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'LI',
  'A',
  'SPAN',
  'B',
  'STRONG',
  'EM',
  'I',
  'FONT',
  'BLOCKQUOTE',
  'PRE',
]);

/** Less text than this in the marked element is a teaser or an empty shell, not the article. */
const MIN_MARKED_CHARS = 120;
/** Marked elements with less text than this are not counted (empty placeholders). */
const MIN_COUNTED_CHARS = 25;

function isMarked(el: Element): boolean {
  if (NOT_CONTAINERS.has(el.tagName)) return false;
  if (el.getAttribute('itemprop') === 'articleBody') return true;
  return BODY_WORDS.test(elementWords(el));
}

/**
 * The one element the page marks as its article body, when it marks exactly one with text
 * (nested marks count as one: the outermost). Several are a listing of posts, or a class
 * used for style (`td.ArticleText` on every cell), and say nothing about the article.
 * Readability, told to look only inside it, no longer takes a longer sidebar, an "about
 * this blog" box or a site's terms for a short post, nor a broader container with the
 * captions, credits and link lists around the text.
 */
export function markedContent(body: Element): Element | null {
  let found: Element | null = null;
  for (const el of Array.from(body.querySelectorAll('*'))) {
    if (!isMarked(el) || found?.contains(el) || textLength(el) < MIN_COUNTED_CHARS) continue;
    if (found !== null) return null;
    found = el;
  }
  return found !== null && textLength(found) >= MIN_MARKED_CHARS ? found : null;
}
