/**
 * The article-extraction benchmark's metric (see the dataset README): 4-gram shingle
 * multisets per page, tp/fp/fn normalised per page, precision and recall averaged over
 * pages, F1 of the two means, and exact-token-sequence accuracy. Markdown is stripped to
 * text first so formatting is not counted as noise.
 */

const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Markdown to plain text: drops images, link targets, emphasis underscores and escapes. */
export function stripMarkdown(markdown: string): string {
  return (
    markdown
      // Images (alt text is an attribute, not page text), then links (text kept). Link text
      // may hold escaped brackets; targets may hold escaped or one level of nested parens.
      .replace(/!\[(?:\\.|[^\]\\])*\]\((?:\\.|[^()\\]|\([^()]*\))*\)/g, ' ')
      .replace(/\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^()\\]|\([^()]*\))*\)/g, '$1')
      // Backslash escapes (turndown writes `\_`, `\*`, `1\.`): `_` is a token character.
      .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
      // Emphasis underscores: `_` between letters/digits is part of a word and stays.
      .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' ')
  );
}

function shingles(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  if (tokens.length === 0) return counts;
  const n = Math.min(4, tokens.length);
  for (let i = 0; i + n <= tokens.length; i += 1) {
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
  exact: boolean;
}

/** Scores one page: `truth` is plain text, `predicted` is markdown. */
export function scorePage(truth: string, predicted: string): PageScore {
  const truthTokens = tokenize(truth);
  const predTokens = tokenize(stripMarkdown(predicted));
  const t = shingles(truthTokens);
  const p = shingles(predTokens);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, pc] of p) {
    const tc = t.get(key) ?? 0;
    tp += Math.min(pc, tc);
    fp += Math.max(0, pc - tc);
  }
  for (const [key, tc] of t) fn += Math.max(0, tc - (p.get(key) ?? 0));
  const total = tp + fp + fn;
  const exact = truthTokens.length === predTokens.length && truthTokens.every((tok, i) => tok === predTokens[i]);
  return total === 0 ? { tp: 0, fp: 0, fn: 0, exact } : { tp: tp / total, fp: fp / total, fn: fn / total, exact };
}

export interface SetScore {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

export function scoreSet(pages: PageScore[]): SetScore {
  const precisions = pages.filter((s) => s.tp + s.fp > 0).map((s) => s.tp / (s.tp + s.fp));
  const recalls = pages.filter((s) => s.tp + s.fn > 0).map((s) => s.tp / (s.tp + s.fn));
  const precision = mean(precisions);
  const recall = mean(recalls);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const accuracy = pages.length === 0 ? 0 : pages.filter((s) => s.exact).length / pages.length;
  return { f1, precision, recall, accuracy };
}
