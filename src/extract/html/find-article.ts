import { Readability } from '@mozilla/readability';

/**
 * Readability's choice of the main content, as a detached element of `doc`. Options: the
 * element itself is returned (no serialise and re-parse before markdown), classes are kept
 * (cheaper, and nothing downstream renders them), JSON-LD is skipped (the title comes from
 * our own rules). Readability mutates `doc`.
 */
export function findArticle(doc: Document): Element | null {
  const reader = new Readability<Element>(doc, {
    keepClasses: true,
    disableJSONLD: true,
    serializer: (node) => node as Element,
  });
  try {
    return reader.parse()?.content ?? null;
  } catch {
    // Readability assumes a browser DOM; on a document it cannot walk, use the fallback.
    return null;
  }
}

const MIN_PARAGRAPH = 140;
const MIN_SCORE = 20;

/**
 * Readability's own "probably readerable" test on paragraphs of the pruned body: a page
 * without a few long paragraphs (home pages, listings, short pages) has no article, and
 * its cleaned body is the better answer.
 */
export function looksLikeArticle(body: Element): boolean {
  let score = 0;
  for (const node of Array.from(body.querySelectorAll('p, pre, article'))) {
    const length = (node.textContent ?? '').trim().length;
    if (length < MIN_PARAGRAPH) continue;
    score += Math.sqrt(length - MIN_PARAGRAPH);
    if (score > MIN_SCORE) return true;
  }
  return false;
}
