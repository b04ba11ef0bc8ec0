import { textLength } from './text-stats.ts';
import { collapseSpace } from '../text-scan.ts';

/**
 * Forum and Q&A threads as their own markup states them: schema.org microdata, which most
 * forum engines write (Discourse, XenForo, vBulletin, NodeBB, Stack Exchange): each post is
 * an item of type Comment, Answer, Question, DiscussionForumPosting or SocialMediaPosting,
 * whose `itemprop="text"` element is the post's body, with its `author` and
 * `datePublished`/`dateCreated` beside it. A thread's posts are its content, every one in
 * order, each under its author and date as the page shows them; an article extractor would
 * keep the longest post, or drop them all as comments.
 */

const POST_TYPE = /schema\.org\/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)\s*$/i;
/** An article's own item: its comments are not the page. */
const ARTICLE_TYPE = /schema\.org\/(?:Article|NewsArticle|BlogPosting|TechArticle|Report|ScholarlyArticle|Recipe)\s*$/i;
/** Questions and answers of a FAQ section are one block of a page, not a thread. */
const FAQ_TYPE = /schema\.org\/FAQPage\s*$/i;
/** Fewer posts than this is an article with a comment, not a thread. */
const MIN_POSTS = 2;
/** A post body with less text than this is a placeholder (a deleted post, an empty item). */
const MIN_POST_CHARS = 2;

export interface ThreadPost {
  /** The post's element (its item, or an unmarked sibling of one), in the page's DOM. */
  unit: Element;
  /** The post's body (itemprop=text), in the page's DOM. */
  body: Element;
  author: string | undefined;
  date: string | undefined;
}

const squash = (text: string | null | undefined): string => collapseSpace(text ?? '');

/** The item (itemscope element) that `el`'s itemprop belongs to. */
const ownerItem = (el: Element): Element | null => el.parentElement?.closest('[itemscope]') ?? null;

/** `unit`'s own property `name` (not one of an item nested inside it). */
function ownProperty(unit: Element, names: readonly string[]): Element | undefined {
  for (const name of names) {
    for (const el of Array.from(unit.querySelectorAll(`[itemprop~="${name}"]`))) {
      if (ownerItem(el) === unit) return el;
    }
  }
  return undefined;
}

function authorOf(unit: Element): string | undefined {
  const author = ownProperty(unit, ['author']);
  if (author === undefined) return undefined;
  const name = author.hasAttribute('itemscope')
    ? Array.from(author.querySelectorAll('[itemprop~="name"]')).find((n) => ownerItem(n) === author)
    : undefined;
  const text =
    name === undefined ? squash(author.textContent) : squash(name.getAttribute('content') ?? name.textContent);
  return text === '' || text.length > 80 ? undefined : text;
}

function dateOf(unit: Element): string | undefined {
  // What the page shows (a <time>'s text) reads better than the machine form beside it.
  for (const time of Array.from(unit.querySelectorAll('time'))) {
    if (time.closest('[itemscope]') !== unit) continue;
    const text = squash(time.textContent);
    if (text !== '') return text.length > 60 ? undefined : text;
  }
  const prop = ownProperty(unit, ['datePublished', 'dateCreated']);
  const text = squash(prop?.getAttribute('content') ?? prop?.getAttribute('datetime') ?? prop?.textContent);
  return text === '' ? undefined : text;
}

const typeOf = (el: Element | null): string => el?.getAttribute('itemtype') ?? '';

/** Whether an item of a type `re` matches encloses `el`. */
function inItem(el: Element, re: RegExp): boolean {
  for (let item = ownerItem(el); item !== null; item = ownerItem(item)) if (re.test(typeOf(item))) return true;
  return false;
}

/**
 * An answer inside a question that has no text of its own (only its `name`): a FAQ entry,
 * marked without a FAQPage around it. A thread's question has its own body, and its answers
 * sit beside it.
 */
function isFaqAnswer(unit: Element): boolean {
  if (!/schema\.org\/Answer\s*$/i.test(typeOf(unit))) return false;
  const question = ownerItem(unit);
  return (
    question !== null &&
    /schema\.org\/Question\s*$/i.test(typeOf(question)) &&
    ownProperty(question, ['text']) === undefined
  );
}

/**
 * The thread's posts in page order, or an empty list when the page marks fewer than two, or
 * is an article (an Article-like item, or an articleBody outside any post: its comments are
 * not its content).
 */
export function threadPosts(body: Element): ThreadPost[] {
  for (const item of Array.from(body.querySelectorAll('[itemscope][itemtype]')))
    if (ARTICLE_TYPE.test(typeOf(item))) return [];
  for (const el of Array.from(body.querySelectorAll('[itemprop~="articleBody"]')))
    if (!POST_TYPE.test(typeOf(ownerItem(el)))) return [];
  const posts: ThreadPost[] = [];
  for (const text of Array.from(body.querySelectorAll('[itemprop~="text"]'))) {
    const unit = ownerItem(text);
    if (unit === null || !POST_TYPE.test(typeOf(unit)) || inItem(unit, FAQ_TYPE) || isFaqAnswer(unit)) continue;
    // A post quoted inside another post's body is part of that body.
    if (posts.some((p) => p.body.contains(text))) continue;
    posts.push({ body: text, author: authorOf(unit), date: dateOf(unit), unit });
  }
  if (posts.length === 0) return [];
  const all = withUnmarked(posts);
  return all.length >= MIN_POSTS ? all : [];
}

const firstClass = (el: Element): string | undefined => el.getAttribute('class')?.trim().split(/\s+/)[0] || undefined;

const hasClass = (el: Element, name: string): boolean => (el.getAttribute('class') ?? '').split(/\s+/).includes(name);

/** The element that holds nearly all of `el`'s text, deepest first, with a class: what the post body is called. */
function bodyClass(el: Element): string | undefined {
  const total = textLength(el);
  let at: Element = el;
  let named = firstClass(el);
  for (;;) {
    const inner = Array.from(at.children).find((c) => textLength(c) >= total * 0.9);
    if (inner === undefined) return named;
    at = inner;
    named = firstClass(at) ?? named;
  }
}

/** The classes around a marked post's author name (`username`, …), nearest the name first. */
function authorClasses(unit: Element): string[] {
  const author = ownProperty(unit, ['author']);
  if (author === undefined) return [];
  const out: string[] = [];
  const name = author.querySelector('[itemprop~="name"]') ?? author;
  for (let el: Element | null = name; el !== null && el !== unit; el = el.parentElement)
    out.push(...(el.getAttribute('class') ?? '').split(/\s+/).filter((c) => c !== ''));
  return out;
}

/**
 * Posts the page left out of its microdata: engines mark the replies but describe the
 * opening post only in JSON-LD (XenForo). A sibling of a marked post with the same tag and
 * first class, not itself marked, is a post of the same thread: its body is its element of
 * the class the marked posts' bodies have, its date its <time>.
 */
function withUnmarked(posts: ThreadPost[]): ThreadPost[] {
  const first = posts[0]!;
  const parent = first.unit.parentElement;
  const cls = firstClass(first.unit);
  const inner = bodyClass(first.body);
  if (parent === null || cls === undefined || inner === undefined) return posts;
  const units = new Set(posts.map((p) => p.unit));
  const named = authorClasses(first.unit);
  const extra: ThreadPost[] = [];
  for (const sibling of Array.from(parent.children)) {
    if (units.has(sibling) || sibling.tagName !== first.unit.tagName || firstClass(sibling) !== cls) continue;
    if (sibling.hasAttribute('itemscope') || sibling.querySelector('[itemprop~="text"]') !== null) continue;
    const body = Array.from(sibling.querySelectorAll('[class]')).find((e) => hasClass(e, inner));
    if (body === undefined) continue;
    const time = sibling.querySelector('time');
    const date = squash(time?.textContent) || undefined;
    const classed = Array.from(sibling.querySelectorAll('[class]'));
    let by: Element | undefined;
    for (const name of named) if ((by = classed.find((el) => hasClass(el, name))) !== undefined) break;
    const author = squash(by?.textContent) || undefined;
    extra.push({ body, author: author !== undefined && author.length <= 80 ? author : undefined, date, unit: sibling });
  }
  if (extra.length === 0) return posts;
  const order = Array.from(parent.children);
  return [...posts, ...extra].sort((a, b) => order.indexOf(a.unit) - order.indexOf(b.unit));
}

/**
 * The posts still in the page after pruning, each as its author and date line then its
 * body, in one new element; null when fewer than two are left with text.
 */
export function threadContent(doc: Document, posts: readonly ThreadPost[]): Element | null {
  const kept = posts.filter((p) => p.body.isConnected && textLength(p.body) >= MIN_POST_CHARS);
  if (kept.length < MIN_POSTS) return null;
  const root = doc.createElement('div');
  for (const post of kept) {
    const section = doc.createElement('section');
    const by = [post.author, post.date].filter((s): s is string => s !== undefined);
    if (by.length > 0) {
      const line = doc.createElement('p');
      if (post.author !== undefined) {
        const strong = doc.createElement('strong');
        strong.textContent = post.author;
        line.appendChild(strong);
      }
      if (post.date !== undefined)
        line.appendChild(doc.createTextNode(`${post.author === undefined ? '' : ' · '}${post.date}`));
      section.appendChild(line);
    }
    for (const child of Array.from(post.body.childNodes)) section.appendChild(child);
    root.appendChild(section);
  }
  return root;
}
