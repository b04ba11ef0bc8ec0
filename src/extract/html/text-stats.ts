/** Cheap text measures used by the boilerplate rules. */

const SPACE = /\s+/g;

/** Visible text of an element with whitespace runs collapsed to one space, trimmed. */
export function normalizedText(el: Element): string {
  return (el.textContent ?? '').replace(SPACE, ' ').trim();
}

/** Characters of text, whitespace not counted. */
export function textLength(el: Element): number {
  return nonSpaceChars(el.textContent ?? '');
}

/** Share of the element's text that sits inside links (0 for an element without text). */
export function linkDensity(el: Element, length = textLength(el)): number {
  if (length === 0) return 0;
  let linked = 0;
  const links = el.getElementsByTagName('a');
  for (const link of links) linked += textLength(link);
  return Math.min(1, linked / length);
}

/**
 * textLength and the link text linkDensity counts, for every element under a root, from one
 * walk: the pruning pass asks both of many nested elements, and textContent per element
 * builds each subtree's text again (quadratic on deep pages). Answers are those of
 * textLength and linkDensity on the tree as it was measured; measure again after changing it.
 */
export class TextMeasure {
  private readonly chars = new Map<Element, number>();
  /** Characters of every `<a>` below an element, each link counted whole (as linkDensity counts them). */
  private readonly links = new Map<Element, number>();

  constructor(root: Element) {
    this.walk(root);
  }

  private walk(el: Element): void {
    let chars = 0;
    let links = 0;
    for (let node = el.firstChild; node !== null; node = node.nextSibling) {
      if (node.nodeType === 3 || node.nodeType === 4) chars += nonSpaceChars((node as CharacterData).data);
      else if (node.nodeType === 1) {
        const child = node as Element;
        this.walk(child);
        const c = this.chars.get(child) ?? 0;
        chars += c;
        links += (this.links.get(child) ?? 0) + (child.tagName === 'A' ? c : 0);
      }
    }
    this.chars.set(el, chars);
    this.links.set(el, links);
  }

  /** textLength(el) (from the walk; computed afresh for an element it did not see). */
  textLength(el: Element): number {
    return this.chars.get(el) ?? textLength(el);
  }

  /** linkDensity(el) from the walk. */
  linkDensity(el: Element, length = this.textLength(el)): number {
    if (length === 0) return 0;
    const linked = this.links.get(el);
    return linked === undefined ? linkDensity(el, length) : Math.min(1, linked / length);
  }
}

/** Characters of text, whitespace not counted (textLength's count of one string). */
export function nonSpaceChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 160) n += 1;
  }
  return n;
}
