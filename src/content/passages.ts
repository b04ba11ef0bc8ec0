import { sentenceEnds, splitBlocks } from './markdown-blocks.ts';
import { blockToPlainText } from './plain-text.ts';
import { queryTerms, terms } from './text-terms.ts';
import { at } from '../domain/must.ts';

/**
 * extra_snippets for advanced depth: the page cut into passages of roughly 200-500
 * characters at block and sentence boundaries, scored against the query with BM25 (the
 * passages of the page are the collection), times a coverage factor that prefers a passage
 * holding more of the distinct query terms. The best few come back in page order.
 */

export const PASSAGE_MIN_CHARS = 200;
export const PASSAGE_MAX_CHARS = 500;
const K1 = 1.2;
const B = 0.75;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Cut one over-long sentence at the last space before the limit (or hard, never in a surrogate pair). */
function splitLong(text: string, out: string[]): void {
  let rest = text;
  while (rest.length > PASSAGE_MAX_CHARS) {
    let cut = rest.lastIndexOf(' ', PASSAGE_MAX_CHARS);
    if (cut < PASSAGE_MIN_CHARS)
      cut = isHighSurrogate(rest.charCodeAt(PASSAGE_MAX_CHARS - 1)) ? PASSAGE_MAX_CHARS - 1 : PASSAGE_MAX_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') out.push(rest);
}

/** A long block as passages of whole sentences, each at most PASSAGE_MAX_CHARS. */
function packSentences(text: string, out: string[]): void {
  let start = 0;
  let last = 0;
  for (const end of sentenceEnds(text)) {
    if (end - start > PASSAGE_MAX_CHARS) {
      if (last > start) {
        out.push(text.slice(start, last).trim());
        start = last;
      }
      if (end - start > PASSAGE_MAX_CHARS) {
        splitLong(text.slice(start, end).trim(), out);
        start = end;
      }
    }
    last = end;
  }
  if (start < text.length && text.slice(start).trim() !== '') out.push(text.slice(start).trim());
}

/** The page's passages in page order, as plain text. */
export function splitPassages(markdown: string): string[] {
  const out: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current !== '') out.push(current);
    current = '';
  };
  for (const block of splitBlocks(markdown)) {
    const raw = markdown.slice(block.start, block.end);
    const plain = blockToPlainText(raw, block.fenced);
    if (plain === '') continue;
    // A heading opens a passage once the current one is long enough to stand alone.
    if (raw.startsWith('#') && current.length >= PASSAGE_MIN_CHARS) flush();
    if (plain.length > PASSAGE_MAX_CHARS) {
      flush();
      packSentences(plain, out);
    } else if (current === '') {
      current = plain;
    } else if (current.length + 1 + plain.length <= PASSAGE_MAX_CHARS) {
      current = `${current} ${plain}`;
    } else {
      flush();
      current = plain;
    }
  }
  flush();
  return out;
}

export interface Scored {
  index: number;
  score: number;
}

/** BM25 with the coverage factor of each passage (its terms) against the query's terms. */
export function scorePassages(passages: string[][], query: string[]): Scored[] {
  const wanted = new Set(query);
  const tfs = passages.map((words) => {
    const tf = new Map<string, number>();
    for (const w of words) if (wanted.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tf, length: words.length };
  });
  const n = passages.length;
  const avgdl = passages.reduce((sum, p) => sum + p.length, 0) / Math.max(1, n) || 1;
  const idf = new Map(
    query.map((t) => {
      const df = tfs.reduce((c, { tf }) => c + (tf.has(t) ? 1 : 0), 0);
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return tfs.map(({ tf, length }, index) => {
    let bm25 = 0;
    const norm = K1 * (1 - B + (B * length) / avgdl);
    for (const [t, f] of tf) bm25 += (idf.get(t) ?? 0) * ((f * (K1 + 1)) / (f + norm));
    return { index, score: bm25 * (0.5 + (0.5 * tf.size) / query.length) };
  });
}

/** Up to `max` passages of `markdown` that best match `query`, in page order; none match → []. */
export function bestPassages(markdown: string, query: string, max = 3): string[] {
  const wanted = queryTerms(query);
  if (wanted.length === 0 || max <= 0) return [];
  // A Set keeps first occurrences in order: boilerplate repeated down a page counts once.
  const passages = [...new Set(splitPassages(markdown))];
  return scorePassages(passages.map(terms), wanted)
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((s) => at(passages, s.index, 'passage'));
}
