import { at } from '../domain/must.ts';
import { type Span, sentenceEnds, splitBlocks } from './markdown-blocks.ts';
import { PASSAGE_MAX_CHARS, PASSAGE_MIN_CHARS, scorePassages } from './passages.ts';
import { blockToPlainText } from './plain-text.ts';
import { queryTerms, terms } from './text-terms.ts';

/**
 * The passages of POST /v1/extract's `query` (and fetch_pages'): the advanced-search ranker
 * (passages.ts: BM25 with a coverage factor, the page's passages as the collection), over
 * passages that are exact slices of the page's markdown rather than snippet text, so each
 * can be cited by its offset and read on from there. Passages follow the same grouping as
 * splitPassages: blocks joined up to PASSAGE_MAX_CHARS of text, a heading opening a new one
 * once the current one stands alone, a long block cut at sentence ends.
 */

export interface RankedPassage extends Span {
  /** markdown.slice(start, end). */
  text: string;
  /** 0 for the best match, then 1, 2, … */
  rank: number;
}

interface Piece extends Span {
  /** The piece as snippet text: what is scored. */
  plain: string;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** `[start, end)` of `text` without the white space at either end. */
function trimmed(text: string, start: number, end: number): Span {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text.charAt(s))) s += 1;
  while (e > s && /\s/.test(text.charAt(e - 1))) e -= 1;
  return { start: s, end: e };
}

/** One long sentence at [start, end) as pieces of at most PASSAGE_MAX_CHARS, cut at a space (or hard, never in a surrogate pair). */
function cutLong(md: string, start: number, end: number, out: Span[]): void {
  let s = start;
  while (end - s > PASSAGE_MAX_CHARS) {
    let cut = md.lastIndexOf(' ', s + PASSAGE_MAX_CHARS);
    if (cut < s + PASSAGE_MIN_CHARS) {
      cut = s + PASSAGE_MAX_CHARS;
      if (isHighSurrogate(md.charCodeAt(cut - 1))) cut -= 1;
    }
    out.push({ start: s, end: cut });
    s = cut;
  }
  if (s < end) out.push({ start: s, end });
}

/** A long block at [start, end) as spans of whole sentences, each at most PASSAGE_MAX_CHARS where sentences allow. */
function packSentences(md: string, start: number, end: number, fenced: boolean): Span[] {
  const out: Span[] = [];
  let from = start;
  let last = start;
  for (const rel of sentenceEnds(md.slice(start, end), fenced)) {
    const at = start + rel;
    if (at - from > PASSAGE_MAX_CHARS) {
      if (last > from) {
        out.push({ start: from, end: last });
        from = last;
      }
      if (at - from > PASSAGE_MAX_CHARS) {
        cutLong(md, from, at, out);
        from = at;
      }
    }
    last = at;
  }
  if (from < end) out.push({ start: from, end });
  return out;
}

/** The passages of `md` in page order, as spans with their snippet text. */
export function passageSpans(md: string): Piece[] {
  const out: Piece[] = [];
  let current: Piece | undefined;
  const flush = (): void => {
    if (current !== undefined) out.push(current);
    current = undefined;
  };
  for (const block of splitBlocks(md)) {
    const raw = md.slice(block.start, block.end);
    const plain = blockToPlainText(raw, block.fenced);
    if (plain === '') continue;
    if (raw.startsWith('#') && current !== undefined && current.plain.length >= PASSAGE_MIN_CHARS) flush();
    if (plain.length > PASSAGE_MAX_CHARS) {
      flush();
      for (const span of packSentences(md, block.start, block.end, block.fenced)) {
        const t = trimmed(md, span.start, span.end);
        const text = blockToPlainText(md.slice(t.start, t.end), block.fenced);
        if (text !== '') out.push({ ...t, plain: text });
      }
    } else if (current === undefined) {
      current = { start: block.start, end: block.end, plain };
    } else if (current.plain.length + 1 + plain.length <= PASSAGE_MAX_CHARS) {
      current = { start: current.start, end: block.end, plain: `${current.plain} ${plain}` };
    } else {
      flush();
      current = { start: block.start, end: block.end, plain };
    }
  }
  flush();
  return out;
}

/**
 * Every passage of `md` that matches `query` at all, best first (ties in page order). A
 * passage repeated down the page (boilerplate) counts once, at its first place.
 */
export function rankPassages(md: string, query: string): RankedPassage[] {
  const wanted = queryTerms(query);
  if (wanted.length === 0) return [];
  const seen = new Set<string>();
  const pieces = passageSpans(md).filter((p) => {
    const text = md.slice(p.start, p.end);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  return scorePassages(
    pieces.map((p) => terms(p.plain)),
    wanted,
  )
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((s, rank) => {
      const p = at(pieces, s.index, 'passage');
      return { start: p.start, end: p.end, text: md.slice(p.start, p.end), rank };
    });
}
