/** Cheap text measures used by the boilerplate rules. */

const SPACE = /\s+/g;

/** Visible text of an element with whitespace runs collapsed to one space, trimmed. */
export function normalizedText(el: Element): string {
  return (el.textContent ?? '').replace(SPACE, ' ').trim();
}

/** Characters of text, whitespace not counted. */
export function textLength(el: Element): number {
  const text = el.textContent ?? '';
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 160) n += 1;
  }
  return n;
}

/** Share of the element's text that sits inside links (0 for an element without text). */
export function linkDensity(el: Element, length = textLength(el)): number {
  if (length === 0) return 0;
  let linked = 0;
  const links = el.getElementsByTagName('a');
  for (const link of links) linked += textLength(link);
  return Math.min(1, linked / length);
}
