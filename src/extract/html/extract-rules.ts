/**
 * The extractor's heuristics by name, each one switchable, so `npm run bench:extract`
 * can measure what each carries (its ablation table turns one off at a time). Production
 * always runs with every rule on (ALL_RULES); only the benchmark passes another set.
 */
export const RULE_NAMES = [
  /** A learned model (content-choice.ts) chooses between Readability's article and the whole pruned body; off, the readerable gate and prose test below choose. */
  'learned-choice',
  /** Noscript content that holds more text than the rest of the page is read as the page (inert-markup.ts). */
  'noscript-fallback',
  /** A thread's posts, as its schema.org microdata marks them, are the content: each under its author and date (thread-posts.ts). */
  'thread-posts',
  /** A product's price, availability, brand, description and specifications from its JSON-LD, when the page's text lacks them (product-facts.ts). */
  'product-facts',
  /** Navigation, aside and footer landmarks and chrome ARIA roles, unless they hold much of the text. */
  'landmarks',
  /** hidden, aria-hidden and inline display:none / visibility:hidden elements. */
  'hidden',
  /** Elements whose class or id words name furniture (comments, share bars, captions, …). */
  'class-words',
  /** Embedded posts and product boxes inside the anchor are kept, whatever furniture words their wrappers carry. */
  'embeds',
  /** Furniture words marking more than half of the page's text name its building blocks, not furniture (prune-boilerplate.ts). */
  'common-words',
  /** The element with most paragraph text, and its ancestors, are never pruned. */
  'anchor-shield',
  /** Pages without long paragraphs fall back to the whole cleaned body unless Readability kept most of it. */
  'readerable-gate',
  /** ...or unless what Readability kept reads as prose: few of its characters are link text. */
  'prose-article',
  /** The one element the page marks as its article body (itemprop=articleBody, entry-content, post-body) wins over a pick elsewhere. */
  'marked-body',
  /** Short blocks whose whole text is furniture: bylines, datelines, credits, promo labels. */
  'boilerplate-text',
  /** Short paragraphs and headings that are all link. */
  'promo-links',
  /** Site notices (trademarks, disclaimers), reporter contacts, calls to act and related-link runs after the article's last sentence. */
  'tail-furniture',
  /** The page title repeated as a block at the top of the article. */
  'repeated-title',
  /** Headings left with nothing under them. */
  'empty-headings',
] as const;

export type RuleName = (typeof RULE_NAMES)[number];

/** Which rules run. */
export type ExtractRules = ReadonlySet<RuleName>;

export const ALL_RULES: ExtractRules = new Set(RULE_NAMES);

/** Every rule but `name`: one column of the ablation table. */
export const without = (name: RuleName): ExtractRules => new Set(RULE_NAMES.filter((r) => r !== name));
