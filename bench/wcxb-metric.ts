/**
 * WCXB's own metric (the Web Content Extraction Benchmark: its dataset README and its
 * evaluate.py): per page, the lower-cased words of the reference and of the extraction as
 * plain text (markdown-text.ts), compared as bags: overlap = sum of the smaller counts,
 * precision = overlap / predicted words, recall = overlap / reference words, F1. Pages are
 * averaged (a mean of per-page figures, not F1 of means), overall and per page type.
 *
 * Empty cases as evaluate.py scores them: no reference words and no predicted words is 1
 * (P = R = F1 = 1); no reference words but some predicted is 0; no predicted words against a
 * reference is 0. Snippets likewise: the share of a page's `with` (or `without`) snippets
 * found, and a page with no snippets of that kind scores 1 for it, in both lists.
 *
 * Words are `/[\p{L}\p{N}\p{M}_]+/gu` as the dataset README gives them. Python's `\w`, which
 * evaluate.py uses, leaves out combining marks (Mn, Mc), so it cuts Devanagari and similar
 * words at their vowel signs where this keeps them whole; a page in such a script scores a
 * little differently from the published scorer (20 references of the 1,497 hold such marks).
 *
 * Snippets are matched case-insensitively as substrings, as evaluate.py does, but with every
 * run of white space on both sides made one space: markdown puts a blank line between
 * paragraphs and a reference snippet spanning two has one line break, and neither is what
 * the page says.
 */
import { markdownToText } from './markdown-text.ts';

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

/** The benchmark's words: lower-cased runs of letters, digits, marks and underscores. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export interface WordScore {
  precision: number;
  recall: number;
  f1: number;
}

const ZERO: WordScore = { precision: 0, recall: 0, f1: 0 };

function counts(tokens: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tokens) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

/** Bag-of-words precision, recall and F1 of plain `predicted` text against `reference`. */
export function wordF1(reference: string, predicted: string): WordScore {
  const ref = words(reference);
  const pred = words(predicted);
  if (ref.length === 0) return pred.length === 0 ? { precision: 1, recall: 1, f1: 1 } : ZERO;
  if (pred.length === 0) return ZERO;
  const refCounts = counts(ref);
  let overlap = 0;
  for (const [word, n] of counts(pred)) overlap += Math.min(n, refCounts.get(word) ?? 0);
  const precision = overlap / pred.length;
  const recall = overlap / ref.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

const squeeze = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Share of `snippets` found in plain `text` (1 when there are none, as evaluate.py has it). */
export function snippetRate(text: string, snippets: readonly string[]): number {
  if (snippets.length === 0) return 1;
  const haystack = squeeze(text);
  return snippets.filter((s) => haystack.includes(squeeze(s))).length / snippets.length;
}

/** What the metric needs of a page's ground truth. */
export interface WcxbTruth {
  pageType: string;
  /** The reference text (`main_content`). */
  reference: string;
  with: readonly string[];
  without: readonly string[];
}

export interface WcxbPageScore extends WordScore {
  pageType: string;
  withRate: number;
  withoutRate: number;
  /** The extraction has no words at all (an extractor that threw counts as empty too). */
  empty: boolean;
}

/** Scores one page: `markdown` is the extractor's output. */
export function scoreWcxbPage(truth: WcxbTruth, markdown: string): WcxbPageScore {
  const text = markdownToText(markdown);
  return {
    pageType: truth.pageType,
    ...wordF1(truth.reference, text),
    withRate: snippetRate(text, truth.with),
    withoutRate: snippetRate(text, truth.without),
    empty: words(text).length === 0,
  };
}

export interface WcxbSummary {
  pages: number;
  /** Means over the pages (0 for no pages: print `pages` first). */
  f1: number;
  precision: number;
  recall: number;
  withRate: number;
  withoutRate: number;
  /** How many pages came back without a word. */
  empty: number;
}

const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function summarise(scores: readonly WcxbPageScore[]): WcxbSummary {
  return {
    pages: scores.length,
    f1: mean(scores.map((s) => s.f1)),
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    withRate: mean(scores.map((s) => s.withRate)),
    withoutRate: mean(scores.map((s) => s.withoutRate)),
    empty: scores.filter((s) => s.empty).length,
  };
}

/** The benchmark's seven page types, in its own order. */
export const PAGE_TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'] as const;

/**
 * `all` then each page type: the seven in the benchmark's order (present or not, so every
 * table has the same columns), then any other type the set names, alphabetically.
 */
export function summariseByType(scores: readonly WcxbPageScore[]): [string, WcxbSummary][] {
  const known: readonly string[] = PAGE_TYPES;
  const others = [...new Set(scores.map((s) => s.pageType))].filter((t) => !known.includes(t)).sort();
  return [
    ['all', summarise(scores)],
    ...[...known, ...others].map((t): [string, WcxbSummary] => [t, summarise(scores.filter((s) => s.pageType === t))]),
  ];
}
