import { openFence, sentenceEnds, splitBlocks } from './markdown-blocks.ts';
import { tokenPrefix, tokensWithin } from './token-count.ts';

/**
 * max_content_tokens: cutting one text to a token limit, and sharing one budget over the
 * results of a response in rank order.
 *
 * Token counts of pieces do not add up exactly (BPE merges across a joint, e.g. "." with the
 * "\n\n" after it), so piece counts only choose a cut; the cut text is then counted once
 * more, and a cut that overshoots falls back to the previous boundary. Every count stops
 * early at its limit, so the work grows with the budget, not with the page.
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
  const ends = blocks.slice(0, whole).map((b) => b.end).reverse();
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
 * that keeps under half the limit; failing both, at a token boundary.
 */
export function cutToTokens(text: string, limit: number): Cut {
  const whole = tokensWithin(text, limit);
  if (whole !== false) return { text, tokens: whole, truncated: false };
  if (limit <= 0) return { text: '', tokens: 0, truncated: text !== '' };
  for (const end of candidateEnds(text, limit)) {
    const out = finish(text.slice(0, end));
    const n = tokensWithin(out, limit);
    if (out !== '' && n !== false) return { text: out, tokens: n, truncated: true };
  }
  // Last resort: not even one sentence fits. Each retry asks for fewer tokens than the
  // previous cut measured, so the loop ends (at worst with the empty string).
  for (let want = limit; want > 0; ) {
    const out = finish(tokenPrefix(text, want));
    const n = tokensWithin(out, limit);
    if (n !== false) return { text: out, tokens: n, truncated: true };
    want = Math.min(want - 1, want - ((tokensWithin(out, Number.MAX_SAFE_INTEGER) as number) - limit));
  }
  return { text: '', tokens: 0, truncated: true };
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
