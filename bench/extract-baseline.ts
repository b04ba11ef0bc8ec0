import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/**
 * The side-by-side baseline: Readability 0.6 on a linkedom document, its article HTML
 * through Turndown with default options. No tweaks: it is the yardstick, not a product.
 */
export function createBaselineExtractor(): (body: Uint8Array) => string {
  const turndown = new TurndownService();
  const decoder = new TextDecoder('utf-8');
  return (body) => {
    const { document } = parseHTML(decoder.decode(body));
    const article = new Readability(document as unknown as Document).parse();
    return article?.content ? turndown.turndown(article.content) : '';
  };
}
