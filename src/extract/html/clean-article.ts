import { isBoilerplateText } from './boilerplate-text.ts';
import { isTailFurniture, tailFurnitureCount } from './tail-furniture.ts';
import { ALL_RULES, type ExtractRules } from './extract-rules.ts';
import { linkDensity, normalizedText } from './text-stats.ts';
import { at } from '../../domain/must.ts';

const BLOCK_TAGS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'LI',
  'DL',
  'DT',
  'DD',
  'TABLE',
  'TR',
  'TD',
  'TH',
  'BLOCKQUOTE',
  'PRE',
  'FIGURE',
  'FIGCAPTION',
  'FORM',
  'HR',
]);
/** Blocks judged by their text; table cells, code and quotes are content whatever they say. */
const JUDGED_TAGS = new Set(['P', 'DIV', 'SECTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'DD', 'DT', 'FIGURE']);
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const PROTECTED_ANCESTORS = new Set(['TABLE', 'PRE', 'BLOCKQUOTE', 'CODE']);
const MAX_PROMO_CHARS = 200;
const MEDIA_AND_WHOLE_BLOCKS = new Set(['TABLE', 'PRE', 'BLOCKQUOTE', 'IMG', 'PICTURE', 'VIDEO', 'AUDIO']);
const LIST_TAGS = new Set(['LI', 'DD', 'DT']);
const BARE_URL = /^(?:https?:\/\/|www\.)\S+$/i;

function hasBlockInside(el: Element): boolean {
  for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (BLOCK_TAGS.has(c.tagName) || hasBlockInside(c)) return true;
  }
  return false;
}

function isProtected(el: Element, root: Element): boolean {
  for (let a = el.parentElement; a !== null && a !== root; a = a.parentElement) {
    if (PROTECTED_ANCESTORS.has(a.tagName)) return true;
  }
  return false;
}

interface Unit {
  el: Element;
  text: string;
}

/** Innermost blocks with text, in document order. */
function textUnits(root: Element): Unit[] {
  const units: Unit[] = [];
  // linkedom quirk: getElementsByTagName('*') finds nothing under elements Readability
  // created; querySelectorAll('*') works.
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (!JUDGED_TAGS.has(el.tagName) || hasBlockInside(el)) continue;
    const text = normalizedText(el);
    if (text.length > 0 && !isProtected(el, root)) units.push({ el, text });
  }
  return units;
}

/** A short block that is all link; a bare URL is a cited source, not a link line. */
function isLinkLine(unit: Unit): boolean {
  return unit.text.length <= MAX_PROMO_CHARS && !BARE_URL.test(unit.text) && linkDensity(unit.el) >= 0.8;
}

/**
 * A short paragraph or heading that is all link: "Read more" teasers, app and newsletter
 * pitches. List items are left alone (link lists are often the content: products, sources).
 */
function isPromoLink(unit: Unit): boolean {
  return !LIST_TAGS.has(unit.el.tagName) && isLinkLine(unit);
}

/** Headings and what can stand under one (text blocks, tables, code, quotes, media), in order. */
function sectionItems(root: Element): Element[] {
  const items: Element[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (MEDIA_AND_WHOLE_BLOCKS.has(el.tagName)) {
      if (!isProtected(el, root)) items.push(el);
    } else if (JUDGED_TAGS.has(el.tagName) && !hasBlockInside(el) && !isProtected(el, root)) {
      if ((el.textContent ?? '').trim() !== '') items.push(el);
    }
  }
  return items;
}

/** Headings with nothing under them (their section was furniture that is now gone). */
function removeEmptyHeadings(root: Element): void {
  const items = sectionItems(root);
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const el = at(items, i, 'section item');
    if (!HEADINGS.has(el.tagName)) continue;
    const next = items[i + 1];
    if (next === undefined || (HEADINGS.has(next.tagName) && next.tagName <= el.tagName)) {
      el.remove();
      items.splice(i, 1);
    }
  }
}

/** Letters and digits only, lower case: a headline compared with the page title. */
const comparable = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** Blocks at the top of the article where a repeated headline sits. */
const HEADLINE_BLOCKS = 3;

/**
 * Removes the furniture Readability keeps inside the article container: the page title
 * repeated as a first block, promo links, label lines ("Read more:", "Don't miss"), bylines,
 * datelines, photo credits and contribution lines, legal notices and calls to act after the
 * last sentence (tail-furniture.ts), then headings left without a section. (Removing blocks
 * repeated verbatim was measured and dropped: recipes and plans repeat their lines.) On a
 * page without an article (`listing`), link-only blocks and runs of headlines are the
 * content and stay.
 */
export function cleanArticle(root: Element, options: { listing: boolean; rules?: ExtractRules; title?: string }): void {
  const rules = options.rules ?? ALL_RULES;
  let units = textUnits(root);
  const title = comparable(options.title ?? '');
  if (rules.has('repeated-title') && !options.listing && title.length > 0) {
    // The title is returned on its own; the same words again at the top are the headline.
    const repeated = units.slice(0, HEADLINE_BLOCKS).filter((u) => comparable(u.text) === title);
    for (const u of repeated) u.el.remove();
    if (repeated.length > 0) units = units.filter((u) => !repeated.includes(u));
  }
  const kept: Unit[] = [];
  for (const unit of units) {
    const furniture =
      (rules.has('boilerplate-text') && isBoilerplateText(unit.text)) ||
      (rules.has('promo-links') && !options.listing && isPromoLink(unit));
    if (furniture) unit.el.remove();
    else kept.push(unit);
  }
  if (rules.has('tail-furniture') && !options.listing) {
    // A trailing run of whole-link lines (related stories, "more from") is furniture too.
    const tail = tailFurnitureCount(kept, (u) => isTailFurniture(u.text) || isLinkLine(u));
    for (const unit of kept.slice(kept.length - tail)) unit.el.remove();
  }
  if (!options.listing && rules.has('empty-headings')) removeEmptyHeadings(root);
}
