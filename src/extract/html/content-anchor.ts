import { elementWords, namesCommentThread } from './class-words.ts';

const MIN_PARAGRAPH_CHARS = 25;
/** Whether `el` or an ancestor below `root` is named as a comment thread. */
function inComments(el: Element, root: Element, verdicts: Map<Element, boolean>): boolean {
  const seen: Element[] = [];
  let answer = false;
  for (let a: Element | null = el; a !== null && a !== root; a = a.parentElement) {
    const known = verdicts.get(a);
    if (known !== undefined) {
      answer = known;
      break;
    }
    seen.push(a);
    // Readers' comments: their text is not the article's, however long it runs.
    if (namesCommentThread(elementWords(a))) {
      answer = true;
      break;
    }
  }
  for (const s of seen) verdicts.set(s, answer);
  return answer;
}

/** Tags whose text is part of the line around them: their text counts for the enclosing block. */
const INLINE_TAGS = new Set([
  'B',
  'STRONG',
  'I',
  'EM',
  'SPAN',
  'FONT',
  'U',
  'SMALL',
  'BIG',
  'SUB',
  'SUP',
  'MARK',
  'Q',
  'CITE',
  'ABBR',
  'TIME',
  'CODE',
]);

/** Elements whose text is never read (inert markup is mostly stripped before; this is the guard). */
const SILENT_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION', 'BUTTON']);

/** Characters of an element's own text: its text nodes and inline children, not links or blocks. */
function ownTextLength(el: Element): number {
  let n = 0;
  for (let c = el.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === 3) n += (c.textContent ?? '').trim().length;
    else if (c.nodeType === 1 && INLINE_TAGS.has((c as Element).tagName)) n += ownTextLength(c as Element);
  }
  return n;
}

/**
 * The element holding most of the page's running text (each paragraph scores its length to
 * its parent and half to its grandparent, as in Readability's first pass). Text written
 * without paragraphs (blog posts and old news pages separate it with `<br>`) scores the same
 * way from the element it sits in; text inside a comment thread does not count (a short
 * article under a long discussion is still the article). The prune step never removes this
 * element or its ancestors: furniture words turn up in the class names of layout wrappers
 * too (`and-w-sidebar`, `body_overlay`, Blogger's `widget Blog`).
 */
export function contentAnchor(body: Element): Element | null {
  const scores = new Map<Element, number>();
  const vote = (holder: Element, length: number) => {
    scores.set(holder, (scores.get(holder) ?? 0) + length);
    const grand = holder.parentElement;
    if (grand !== null) scores.set(grand, (scores.get(grand) ?? 0) + length / 2);
  };
  const comments = new Map<Element, boolean>();
  for (const el of Array.from(body.querySelectorAll('*'))) {
    if (SILENT_TAGS.has(el.tagName) || inComments(el, body, comments)) continue;
    if (el.tagName === 'P') {
      const length = (el.textContent ?? '').trim().length;
      if (length >= MIN_PARAGRAPH_CHARS && el.parentElement !== null) vote(el.parentElement, length);
    } else if (!INLINE_TAGS.has(el.tagName) && el.tagName !== 'A') {
      const own = ownTextLength(el);
      if (own >= MIN_PARAGRAPH_CHARS) vote(el, own);
    }
  }
  let best: Element | null = null;
  let bestScore = 0;
  for (const [el, score] of scores) {
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best;
}

/** The anchor and every ancestor up to (not including) `body`. */
export function anchorPath(body: Element, anchor: Element | null = contentAnchor(body)): Set<Element> {
  const path = new Set<Element>();
  for (let el = anchor; el !== null && el !== body; el = el.parentElement) path.add(el);
  return path;
}
