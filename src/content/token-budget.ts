import { openFence, sentenceEnds, splitBlocks } from './markdown-blocks.ts';
import { countTokens, tokenizableEnd, tokenPrefix, tokensWithin } from './token-count.ts';
import { at } from '../domain/must.ts';

/**
 * max_content_tokens: cutting one text to a token limit, and sharing one budget over the
 * results of a response in rank order.
 *
 * Token counts of pieces do not add up exactly (BPE merges across a joint, e.g. "." with the
 * "\n\n" after it), so piece counts only choose a cut; the cut text is then counted once
 * more, and a cut that overshoots falls back to a shorter boundary. Every count stops
 * early at its limit, so the work grows with the budget, not with the page; that holds once
 * the text has no very long tokenizer piece (token-count.ts), so a text with one is cut
 * inside it first: a hostile page of one 100,000-letter word keeps its first LONG_PIECE
 * characters at most.
 */

export interface Cut {
  text: string;
  /** Exact o200k_base token count of `text`. */
  tokens: number;
  truncated: boolean;
}

// "\n\n" between blocks is one o200k_base token; the final count corrects any error.
const SEPARATOR_TOKENS = 1;
// A paragraph cut that keeps less than this share of the limit also takes whole sentences of
// the next block, so one long paragraph does not leave most of a result's share unused.
const FILL_FLOOR = 0.5;

/** Cut positions that should fit `limit` by piece counts, best (longest) first. */
function candidateEnds(text: string, limit: number): number[] {
  const blocks = splitBlocks(text);
  let used = 0;
  let whole = 0;
  for (const block of blocks) {
    const sep = whole > 0 ? SEPARATOR_TOKENS : 0;
    const n = tokensWithin(text.slice(block.start, block.end), limit - used - sep);
    if (n === false) break;
    used += n + sep;
    whole += 1;
  }
  const ends = blocks
    .slice(0, whole)
    .map((b) => b.end)
    .reverse();
  const next = blocks[whole];
  if (next === undefined || (whole > 0 && used >= limit * FILL_FLOOR)) return ends;

  const inner = text.slice(next.start, next.end);
  const sentences: number[] = [];
  let prev = 0;
  used += whole > 0 ? SEPARATOR_TOKENS : 0;
  for (const end of sentenceEnds(inner, next.fenced)) {
    const n = tokensWithin(inner.slice(prev, end), limit - used);
    if (n === false) break;
    used += n;
    sentences.push(next.start + end);
    prev = end;
  }
  return [...sentences.reverse(), ...ends];
}

/** The cut as returned: no trailing white space, and a code fence left open is closed. */
function finish(prefix: string): string {
  const text = prefix.trimEnd();
  const fence = openFence(text);
  return fence === null ? text : `${text}\n${fence}`;
}

/**
 * `text` cut to at most `limit` tokens: whole when it fits, else at the last paragraph
 * (blank-line) boundary that fits, extended by whole sentences of the next paragraph when
 * that keeps under half the limit; failing both, at a token boundary. Only the part of `text`
 * up to tokenizableEnd is ever kept (or counted).
 */
export function cutToTokens(text: string, limit: number): Cut {
  const cheap = tokenizableEnd(text);
  if (cheap === text.length) {
    const whole = tokensWithin(text, limit);
    if (whole !== false) return { text, tokens: whole, truncated: false };
  }
  if (limit <= 0) return { text: '', tokens: 0, truncated: text !== '' };
  return cutPrefix(cheap === text.length ? text : text.slice(0, cheap), limit);
}

/** The cut of `text` at `end` when it is not empty and within `limit`. */
function cutAt(text: string, end: number, limit: number): Cut | undefined {
  const out = finish(text.slice(0, end));
  const n = out === '' ? false : tokensWithin(out, limit);
  return n === false ? undefined : { text: out, tokens: n, truncated: true };
}

/**
 * The cut at the longest of `ends` (longest first) that fits. Usually the first does; when
 * piece counts undercounted (merges across joints, long runs of line breaks), bisection finds
 * the longest that fits in a few counts. A walk back one candidate at a time re-counts up to
 * `limit` tokens per step: 30,000 one-letter paragraphs between runs of line breaks took 15 s
 * that way.
 */
function longestFitting(text: string, ends: number[], limit: number): Cut | undefined {
  const [longest] = ends;
  if (longest === undefined) return undefined;
  const first = cutAt(text, longest, limit);
  if (first !== undefined || ends.length === 1) return first;
  let best = cutAt(text, at(ends, ends.length - 1, 'cut candidate'), limit);
  if (best === undefined) return undefined;
  // ends[lo] is over the limit, ends[hi] fits (a longer prefix does not have fewer tokens).
  let lo = 0;
  let hi = ends.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const cut = cutAt(text, at(ends, mid, 'cut candidate'), limit);
    if (cut === undefined) lo = mid;
    else [hi, best] = [mid, cut];
  }
  return best;
}

/**
 * Last resort, when not even one sentence fits: a cut at a token boundary. Each retry asks
 * for fewer tokens than the previous cut measured, then for half as many, so the loop ends
 * within a few dozen counts (at worst with the empty string).
 */
function tokenCut(text: string, limit: number): Cut {
  let want = limit;
  for (let retry = 0; want > 0; retry += 1) {
    const out = finish(tokenPrefix(text, want));
    const n = tokensWithin(out, limit);
    if (n !== false) return { text: out, tokens: n, truncated: true };
    want = retry < 4 ? Math.min(want - 1, want - (countTokens(out) - limit)) : Math.floor(want / 2);
  }
  return { text: '', tokens: 0, truncated: true };
}

/** A truncated cut of `text` (which has no long piece) to `limit` (> 0) tokens. */
function cutPrefix(text: string, limit: number): Cut {
  return longestFitting(text, candidateEnds(text, limit), limit) ?? tokenCut(text, limit);
}

/**
 * Shares `total` tokens over `count` parties in order: each gets an even share (the
 * remainder of the division goes to the first ones) plus whatever the previous party left
 * unused. `take(index, limit)` spends at most `limit` and returns what it spent.
 */
export function shareInRankOrder(total: number, count: number, take: (index: number, limit: number) => number): void {
  if (count <= 0) return;
  const base = Math.floor(total / count);
  const remainder = total - base * count;
  let carry = 0;
  for (let i = 0; i < count; i += 1) {
    const limit = base + (i < remainder ? 1 : 0) + carry;
    carry = limit - Math.min(limit, Math.max(0, take(i, limit)));
  }
}
