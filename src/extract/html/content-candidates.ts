import { findArticle, looksLikeArticle } from './find-article.ts';
import type { ExtractRules } from './extract-rules.ts';
import { markedContent } from './marked-content.ts';
import { measureLayout, pageFeatures } from './page-features.ts';
import { linkDensity, textLength } from './text-stats.ts';

/** Below this, what Readability kept is a teaser, not an article: the cleaned body is better. */
const MIN_ARTICLE_CHARS = 200;
/** A page without long paragraphs is an article only if Readability kept this share of its text... */
const MIN_LISTING_SHARE = 0.9;
/** ...or if at most this share of what it kept is link text (short news items, `<br>`-separated text). */
const MAX_PROSE_LINK_DENSITY = 0.4;

/**
 * What the extractor chooses between: Readability's article, or the whole pruned body (not
 * kept here: Readability has changed the document; a fresh parse gives it when chosen, which
 * costs less than copying every page's body for the few read whole).
 */
export interface ContentCandidates {
  /** What Readability picks (within the page's marked body when it marks one); null when it keeps too little. */
  article: Element | null;
  /** The page's features (page-features.ts), read before either candidate is cleaned; empty unless asked for. */
  features: number[];
  /** The hand-written rules' choice: Readability's article when the page reads as one. */
  ruleChoice: 'article' | 'body';
  /** Whether the page has a few long paragraphs (Readability's readerable test on the pruned body). */
  readerable: boolean;
  /** Whether Readability's pick, on a page without long paragraphs, reads as prose (few link characters). */
  prose: boolean;
}

/**
 * Readability's article from the page's pruned body, and what the choice between it and the
 * whole body needs. `types` are the page's declared types, read before pruning removed its
 * scripts; features are computed only when `withFeatures` (the learned choice needs them; the
 * hand-written rules do not), the body's before Readability changes it.
 */
export function contentCandidates(
  doc: Document,
  types: ReadonlySet<string>,
  pageUrl: string,
  rules: ExtractRules,
  withFeatures: boolean,
): ContentCandidates {
  const body = doc.body ?? doc.documentElement;
  // The layouts, when measured, give the lengths the gate reads too (one walk, not two).
  const bodyLayout = withFeatures ? measureLayout(body) : null;
  const readerable = !rules.has('readerable-gate') || looksLikeArticle(body);
  const bodyChars = bodyLayout?.chars ?? textLength(body);
  // The page's own article-body markup, when it has one, is where Readability looks.
  const marked = rules.has('marked-body') ? markedContent(body) : null;
  if (marked !== null) body.replaceChildren(marked);
  const picked = findArticle(doc);
  const pickedLayout = picked !== null && withFeatures ? measureLayout(picked) : null;
  const articleChars = picked === null ? 0 : (pickedLayout?.chars ?? textLength(picked));
  const article = picked !== null && articleChars >= MIN_ARTICLE_CHARS ? picked : null;
  // A page without a few long paragraphs (home page, listing, short page) has no article
  // unless Readability kept nearly all of it; otherwise its cleaned body is the answer.
  const prose =
    !readerable &&
    rules.has('prose-article') &&
    article !== null &&
    linkDensity(article, articleChars) <= MAX_PROSE_LINK_DENSITY;
  const ruleChoice =
    article !== null && (readerable || prose || articleChars >= bodyChars * MIN_LISTING_SHARE) ? 'article' : 'body';
  const features =
    bodyLayout === null ? [] : pageFeatures(bodyLayout, article === null ? null : pickedLayout, types, pageUrl);
  return { article, features, ruleChoice, readerable, prose };
}
