const MIN_PARAGRAPH_CHARS = 25;

/**
 * The element holding most of the page's paragraph text (each paragraph scores its length
 * to its parent and half to its grandparent, as in Readability's first pass). The prune
 * step never removes this element or its ancestors: furniture words turn up in the class
 * names of layout wrappers too (`and-w-sidebar`, `body_overlay`).
 */
export function contentAnchor(body: Element): Element | null {
  const scores = new Map<Element, number>();
  const paragraphs = body.getElementsByTagName('p');
  for (let i = 0; i < paragraphs.length; i += 1) {
    const p = paragraphs[i];
    const length = (p.textContent ?? '').trim().length;
    if (length < MIN_PARAGRAPH_CHARS) continue;
    const parent = p.parentElement;
    if (parent === null) continue;
    scores.set(parent, (scores.get(parent) ?? 0) + length);
    const grand = parent.parentElement;
    if (grand !== null) scores.set(grand, (scores.get(grand) ?? 0) + length / 2);
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
export function anchorPath(body: Element): Set<Element> {
  const path = new Set<Element>();
  for (let el = contentAnchor(body); el !== null && el !== body; el = el.parentElement) path.add(el);
  return path;
}
