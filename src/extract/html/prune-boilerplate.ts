import { anchorPath, contentAnchor } from './content-anchor.ts';
import { isEmbed } from './embeds.ts';
import { codeLanguage } from './code-language.ts';
import { elementWords, furnitureKind } from './class-words.ts';
import { ALL_RULES, type ExtractRules } from './extract-rules.ts';
import { TextMeasure } from './text-stats.ts';

/** Elements that never carry article text. */
const DROP_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'CANVAS',
  'OBJECT',
  'EMBED',
  'BUTTON',
  'SELECT',
  'TEXTAREA',
  'INPUT',
  'DIALOG',
  'FIGCAPTION',
  'LINK',
  'META',
]);
/** Landmarks of page chrome; kept only when they hold much of the page's text. */
const CHROME_TAGS = new Set(['NAV', 'ASIDE', 'FOOTER']);
const CHROME_ROLES = new Set([
  'navigation',
  'menu',
  'menubar',
  'banner',
  'contentinfo',
  'complementary',
  'dialog',
  'alertdialog',
  'search',
  'alert',
  'tooltip',
]);
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** A container of furniture may still be the article's wrapper on odd sites: keep big ones. */
const MAX_CHROME_SHARE = 0.3;
/** Captions, bylines, datelines and tags are short; a long element with such a class is content. */
const MAX_SMALL_CHARS = 400;

type Verdict = 'drop' | 'chrome' | 'small' | 'keep' | 'embed';

/**
 * Furniture words that, on this page, mark blocks holding more than this share of its text:
 * they name its building blocks, not furniture (page builders call every block a `widget`,
 * a landing page's sections are `promo` and `cta` bands).
 */
const COMMON_SHARE = 0.5;

/** The container words of this page that mark more than COMMON_SHARE of its text (outermost blocks counted once). */
function commonWords(body: Element, pageChars: number, text: TextMeasure): Set<string> {
  const covered = new Map<string, { chars: number; last: Element | null }>();
  for (const el of Array.from(body.querySelectorAll('[class], [id]'))) {
    const words = elementWords(el);
    if (furnitureKind(words) !== 'container') continue;
    for (const word of new Set(words.split(' '))) {
      if (furnitureKind(word) !== 'container') continue;
      const c = covered.get(word) ?? { chars: 0, last: null };
      if (c.last?.contains(el) === true) continue;
      c.chars += text.textLength(el);
      c.last = el;
      covered.set(word, c);
    }
  }
  const out = new Set<string>();
  for (const [word, c] of covered) if (c.chars > pageChars * COMMON_SHARE) out.add(word);
  return out;
}

/** `words` without the page's common words. */
const withoutCommon = (words: string, common: ReadonlySet<string>): string =>
  common.size === 0
    ? words
    : words
        .split(' ')
        .filter((w) => !common.has(w))
        .join(' ');

/** `articleEmbed`: whether a block its class words call furniture is an embed of the article's text (embeds.ts). */
function verdict(
  el: Element,
  rules: ExtractRules,
  articleEmbed: (el: Element) => boolean,
  common: ReadonlySet<string>,
): Verdict {
  const tag = el.tagName;
  if (DROP_TAGS.has(tag)) return 'drop';
  if (rules.has('landmarks')) {
    if (CHROME_TAGS.has(tag)) return 'chrome';
    const role = el.getAttribute('role');
    if (role !== null && CHROME_ROLES.has(role)) return 'chrome';
  }
  if (rules.has('hidden')) {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return 'chrome';
    const style = el.getAttribute('style');
    if (style !== null && HIDDEN_STYLE.test(style)) return 'chrome';
  }
  if (!rules.has('class-words')) return 'keep';
  const kind = furnitureKind(withoutCommon(elementWords(el), common));
  if (kind === 'container') return articleEmbed(el) ? 'embed' : 'chrome';
  return kind === 'small' ? 'small' : 'keep';
}

function isRemovable(el: Element, v: Verdict, pageChars: number, text: TextMeasure): boolean {
  if (v === 'drop') return true;
  if (v === 'keep' || v === 'embed') return false;
  const chars = text.textLength(el);
  if (v === 'small') return chars <= MAX_SMALL_CHARS || text.linkDensity(el, chars) > 0.5;
  return chars <= pageChars * MAX_CHROME_SHARE || text.linkDensity(el, chars) > 0.5;
}

/**
 * Removes page furniture before the article is scored: scripts and widgets, navigation
 * landmarks, hidden elements, and elements whose class or id names them as captions,
 * credits, bylines, share bars, related feeds, comments, newsletters or cookie banners.
 * Readability keeps much of this when it sits inside the article's container; removing
 * it first is also what makes the scoring pass faster. Marks code blocks with their
 * language (`data-lang`) while it walks, as later steps no longer see the wrappers.
 */
export function pruneBoilerplate(body: Element, rules: ExtractRules = ALL_RULES): void {
  for (const el of findBoilerplate(body, rules)) el.remove();
}

/** The elements `pruneBoilerplate` removes (outermost only), in document order reversed. */
export function findBoilerplate(body: Element, rules: ExtractRules = ALL_RULES): Element[] {
  // Every length below is of the page as it is now: nothing is removed until the walk ends.
  const text = new TextMeasure(body);
  const pageChars = text.textLength(body);
  const anchor = contentAnchor(body);
  const protectedPath = rules.has('anchor-shield') ? anchorPath(body, anchor) : new Set<Element>();
  // Embedded posts and product boxes inside the article's own text are part of it.
  const articleEmbed =
    rules.has('embeds') && anchor !== null
      ? (el: Element) => el !== anchor && isEmbed(el) && anchor.contains(el)
      : () => false;
  const common =
    rules.has('common-words') && rules.has('class-words') ? commonWords(body, pageChars, text) : new Set<string>();
  const doomed: Element[] = [];
  const stack: Element[] = Array.from(body.children);
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const v = verdict(el, rules, articleEmbed, common);
    if (!protectedPath.has(el) && isRemovable(el, v, pageChars, text)) {
      doomed.push(el);
      continue;
    }
    if (v === 'embed') {
      // Readability drops blocks by the same words (`social`, `widget`, `media`): give it a neutral name.
      el.removeAttribute('id');
      el.setAttribute('class', 'embedded');
    }
    if (el.tagName === 'PRE') {
      const lang = codeLanguage(el);
      if (lang !== null) el.setAttribute('data-lang', lang);
      continue;
    }
    for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) stack.push(c);
  }
  return doomed;
}
