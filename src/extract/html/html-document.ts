import { parseHTML } from 'linkedom';
import { boundMarkup } from '../markup-bounds.ts';
import { limitNesting } from '../markup-nesting.ts';
import { pageTitle } from '../title.ts';
import { absolutizeUrls, documentBase } from './absolute-urls.ts';
import { cleanArticle } from './clean-article.ts';
import { limitDom } from './dom-limits.ts';
import { ALL_RULES, type ExtractRules } from './extract-rules.ts';
import { findArticle, looksLikeArticle } from './find-article.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { ensureBodyShell } from './html-skeleton.ts';
import { stripInertMarkup } from './inert-markup.ts';
import { pruneBoilerplate } from './prune-boilerplate.ts';
import { linkDensity, textLength } from './text-stats.ts';
import { markedContent } from './marked-content.ts';
import { productFacts, productFactsMarkdown } from './product-facts.ts';
import { threadContent, threadPosts } from './thread-posts.ts';
import { refuseUnreadablePage } from './unreadable-page.ts';

export interface HtmlExtract {
  title: string;
  markdown: string;
  /** The page was cut at the parser's input bounds (markup-bounds.ts) before extraction. */
  truncated: boolean;
}

/** Below this, what Readability kept is a teaser, not an article: the cleaned body is better. */
const MIN_ARTICLE_CHARS = 200;
/** A page without long paragraphs is an article only if Readability kept this share of its text... */
const MIN_LISTING_SHARE = 0.9;
/** ...or if at most this share of what it kept is link text (short news items, `<br>`-separated text). */
const MAX_PROSE_LINK_DENSITY = 0.4;

/** A parsed page within the depth and attribute bounds of dom-limits.ts. */
function parse(html: string): Document {
  const doc = parseHTML(html).document as unknown as Document;
  if (doc.documentElement) limitDom(doc.documentElement);
  return doc;
}

/** `lead` put first, after the page's own top heading when it starts with one (the product's name). */
function withLead(markdown: string, lead: string): string {
  const heading = /^#{1,2} [^\n]*\n/.exec(markdown);
  if (heading === null) return markdown === '' ? lead : `${lead}\n\n${markdown}`;
  return `${heading[0]}\n${lead}\n\n${markdown.slice(heading[0].length).replace(/^\n+/, '')}`;
}

/** The pruned body of a fresh parse: the answer for pages without an article. */
function cleanedBody(html: string, rules: ExtractRules): Element {
  const doc = parse(html);
  const body = doc.body ?? doc.documentElement;
  pruneBoilerplate(body, rules);
  return body;
}

/**
 * The page's article (what Readability picks, within the page's marked body when it marks
 * one), or its cleaned body when it has none; cleaned of the furniture left inside it.
 */
function articleRoot(doc: Document, html: string, rules: ExtractRules, title: string): Element {
  const body = doc.body ?? doc.documentElement;
  const readerable = !rules.has('readerable-gate') || looksLikeArticle(body);
  const bodyChars = textLength(body);
  // The page's own article-body markup, when it has one, is where Readability looks.
  const marked = rules.has('marked-body') ? markedContent(body) : null;
  if (marked !== null) body.replaceChildren(marked);
  const article = findArticle(doc);
  const articleChars = article === null ? 0 : textLength(article);
  // A page without a few long paragraphs (home page, listing, short page) has no article
  // unless Readability kept nearly all of it; otherwise its cleaned body is the answer.
  const prose =
    !readerable &&
    rules.has('prose-article') &&
    article !== null &&
    articleChars >= MIN_ARTICLE_CHARS &&
    linkDensity(article, articleChars) <= MAX_PROSE_LINK_DENSITY;
  const found =
    articleChars >= MIN_ARTICLE_CHARS && (readerable || prose || articleChars >= bodyChars * MIN_LISTING_SHARE);
  const root = found && article !== null ? article : cleanedBody(html, rules);
  // Without long paragraphs or prose, link-only blocks and bare headlines are the page's content.
  cleanArticle(root, { listing: !readerable && !prose, rules, title });
  return root;
}

/**
 * HTML to markdown of its main content: prune page furniture, let Readability pick the
 * article (when the page has one), drop the furniture left inside it, make URLs absolute
 * and render GFM. Pages without an article fall back to the whole cleaned body.
 */
export function htmlToDocument(rawHtml: string, pageUrl: string, rules: ExtractRules = ALL_RULES): HtmlExtract {
  const bounded = boundMarkup(stripInertMarkup(rawHtml, { noscriptFallback: rules.has('noscript-fallback') }));
  const html = limitNesting(ensureBodyShell(bounded.markup), { xml: false });
  const doc = parse(html);
  const title = pageTitle(doc, pageUrl);
  const base = documentBase(doc, pageUrl);
  const body = doc.body ?? doc.documentElement;
  // Read before pruning, which takes post bylines and dates for furniture.
  const posts = rules.has('thread-posts') ? threadPosts(body) : [];
  pruneBoilerplate(body, rules);
  const thread = threadContent(doc, posts);
  // A thread's posts are all content: no article is picked from among them, no byline is furniture.
  const root = thread ?? articleRoot(doc, html, rules, title);
  absolutizeUrls(root, base);
  let markdown = htmlToMarkdown(root);
  // Product facts are a product page's; a thread's answer is its posts.
  const facts = thread === null && rules.has('product-facts') ? productFacts(rawHtml) : undefined;
  if (facts !== undefined) {
    const lead = productFactsMarkdown(facts, markdown);
    if (lead !== '') markdown = withLead(markdown, lead);
  }
  // A challenge, block page or app shell is not the page: say so rather than return its few words.
  refuseUnreadablePage(rawHtml, markdown);
  return { title, markdown, truncated: bounded.truncated };
}
