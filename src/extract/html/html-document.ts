import { parseHTML } from 'linkedom';
import { boundMarkup } from '../markup-bounds.ts';
import { limitNesting } from '../markup-nesting.ts';
import { pageTitle } from '../title.ts';
import { absolutizeUrls, documentBase } from './absolute-urls.ts';
import { cleanArticle } from './clean-article.ts';
import { limitDom } from './dom-limits.ts';
import { ALL_RULES, type ExtractRules } from './extract-rules.ts';
import { contentCandidates } from './content-candidates.ts';
import { choosesBody, shippedModel } from './content-choice.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { ensureBodyShell } from './html-skeleton.ts';
import { stripInertMarkup } from './inert-markup.ts';
import { pruneBoilerplate } from './prune-boilerplate.ts';
import { declaredTypes } from './page-features.ts';
import { productFacts, productFactsMarkdown } from './product-facts.ts';
import { threadContent, threadPosts } from './thread-posts.ts';
import { refuseUnreadablePage } from './unreadable-page.ts';

export interface HtmlExtract {
  title: string;
  markdown: string;
  /** The page was cut at the parser's input bounds (markup-bounds.ts) before extraction. */
  truncated: boolean;
}

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

/** The pruned body of a fresh parse: the whole-page reading. */
function cleanedBody(html: string, rules: ExtractRules): Element {
  const doc = parse(html);
  const body = doc.body ?? doc.documentElement;
  pruneBoilerplate(body, rules);
  return body;
}

/** A page parsed and pruned, its thread read: what both the extraction and the training readings start from. */
interface PreparedPage {
  /** The bounded, nesting-limited markup the document was parsed from. */
  html: string;
  doc: Document;
  title: string;
  base: string;
  types: ReadonlySet<string>;
  /** The thread's posts as content, when the page is a thread. */
  thread: Element | null;
  truncated: boolean;
}

function preparePage(rawHtml: string, pageUrl: string, rules: ExtractRules): PreparedPage {
  const bounded = boundMarkup(stripInertMarkup(rawHtml, { noscriptFallback: rules.has('noscript-fallback') }));
  const html = limitNesting(ensureBodyShell(bounded.markup), { xml: false });
  const doc = parse(html);
  const title = pageTitle(doc, pageUrl);
  const base = documentBase(doc, pageUrl);
  const body = doc.body ?? doc.documentElement;
  // Read before pruning, which removes the scripts that hold JSON-LD.
  const types = declaredTypes(doc);
  // Read before pruning, which takes post bylines and dates for furniture.
  const posts = rules.has('thread-posts') ? threadPosts(body) : [];
  pruneBoilerplate(body, rules);
  const thread = threadContent(doc, posts);
  return { html, doc, title, base, types, thread, truncated: bounded.truncated };
}

/**
 * A reading cleaned of the furniture left inside it, as markdown with absolute URLs and,
 * on a product page, its facts first. An article reading loses promo links and the tail
 * after its last sentence; a whole-page reading keeps link-only blocks and bare headlines,
 * which are a listing's content.
 */
function render(root: Element, page: PreparedPage, rawHtml: string, rules: ExtractRules, listing: boolean): string {
  if (page.thread !== root) cleanArticle(root, { listing, rules, title: page.title });
  absolutizeUrls(root, page.base);
  let markdown = htmlToMarkdown(root);
  // Product facts are a product page's; a thread's answer is its posts.
  const facts = page.thread === null && rules.has('product-facts') ? productFacts(rawHtml) : undefined;
  if (facts !== undefined) {
    const lead = productFactsMarkdown(facts, markdown);
    if (lead !== '') markdown = withLead(markdown, lead);
  }
  return markdown;
}

/**
 * HTML to markdown of its main content: prune page furniture, read a thread's posts when
 * the page is one; otherwise let Readability pick the article and choose between it and the
 * whole pruned body (the learned choice, content-choice.ts, or with that rule off the
 * hand-written gate), drop the furniture left inside, make URLs absolute and render GFM.
 */
export function htmlToDocument(rawHtml: string, pageUrl: string, rules: ExtractRules = ALL_RULES): HtmlExtract {
  const page = preparePage(rawHtml, pageUrl, rules);
  let markdown: string;
  if (page.thread !== null) {
    // A thread's posts are all content: no article is picked from among them, no byline is furniture.
    markdown = render(page.thread, page, rawHtml, rules, false);
  } else {
    const learned = rules.has('learned-choice');
    const c = contentCandidates(page.doc, page.types, pageUrl, rules, learned);
    if (learned) {
      // The model decides where the hand-written gate would take the article: it learned from
      // pages where Readability kept enough to choose, and the gate seldom refuses those.
      const body = c.article === null || c.ruleChoice === 'body' || choosesBody(shippedModel(), c.features);
      markdown = body
        ? render(cleanedBody(page.html, rules), page, rawHtml, rules, true)
        : render(c.article as Element, page, rawHtml, rules, false);
    } else {
      const root = c.ruleChoice === 'article' && c.article !== null ? c.article : cleanedBody(page.html, rules);
      // Without long paragraphs or prose, link-only blocks and bare headlines are the page's content.
      markdown = render(root, page, rawHtml, rules, !c.readerable && !c.prose);
    }
  }
  // A challenge, block page or app shell is not the page: say so rather than return its few words.
  refuseUnreadablePage(rawHtml, markdown);
  return { title: page.title, markdown, truncated: page.truncated };
}

/** A page's two readings, for training the choice between them. */
export interface PageReadings {
  features: number[];
  /** Readability's article as markdown; null when it keeps too little to be one. */
  article: string | null;
  body: string;
}

/**
 * Both readings of a page and its features, as the extractor would render either
 * (train-content-choice.ts); null where no choice is learned: a thread, or a page the
 * hand-written gate already reads whole.
 */
export function pageReadings(rawHtml: string, pageUrl: string, rules: ExtractRules = ALL_RULES): PageReadings | null {
  const page = preparePage(rawHtml, pageUrl, rules);
  if (page.thread !== null) return null;
  const c = contentCandidates(page.doc, page.types, pageUrl, rules, true);
  if (c.ruleChoice === 'body') return null;
  return {
    features: c.features,
    article: c.article === null ? null : render(c.article, page, rawHtml, rules, false),
    body: render(cleanedBody(page.html, rules), page, rawHtml, rules, true),
  };
}
