import { must } from '../../domain/must.ts';
import { TITLE_WEIGHT } from '../search-statements.ts';
import { MAX_MATCHES, type Match } from '../snippet.ts';
import { wordEnd } from './tokenize.ts';

/*
 * A document's vector, one Uint32Array: [n, titleTokens, term ids (ascending) × n,
 * position starts × (n + 1), positions…]. Positions of the content are shifted by
 * titleTokens + 1, so no phrase runs from the title into the content.
 *
 * Reads of a vector stay inside the layout its head describes, and a build's scratch is
 * sized for every term id: their `?? 0` only satisfies the type and is never taken (these
 * run per token of a build and per candidate of a search: no check).
 */
const N_TERMS = 0;
const TITLE_LEN = 1;
const HEAD = 2;

/** The vector of a removed document. */
export const EMPTY_VECTOR = new Uint32Array([0, 0, 0]);

/**
 * Longest phrase (tokens) phraseFreq matches: a span is at most 2 words + 2 stop words, but
 * one word FTS5 splits (a combining mark it takes for a separator) is a phrase too, and a
 * 400-character query cannot make more tokens than this.
 */
export const MAX_PHRASE_TOKENS = 512;

export const termCount = (v: Uint32Array): number => v[N_TERMS] ?? 0;
export const titleLength = (v: Uint32Array): number => v[TITLE_LEN] ?? 0;
export const termsOf = (v: Uint32Array): Uint32Array => v.subarray(HEAD, HEAD + termCount(v));

/** Start and end (exclusive) in `v` of the positions of the j-th term. */
export const runStart = (v: Uint32Array, j: number): number => v[HEAD + termCount(v) + j] ?? 0;
export const runEnd = (v: Uint32Array, j: number): number => v[HEAD + termCount(v) + j + 1] ?? 0;

/** Index j of term `t` among the vector's terms (binary search), or -1. */
function termIndex(v: Uint32Array, t: number): number {
  let lo = HEAD;
  let hi = HEAD + termCount(v) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = v[mid] ?? 0;
    if (x === t) return mid - HEAD;
    if (x < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Whether x is in the ascending run v[lo, hi). */
function containsIn(v: Uint32Array, lo: number, hi: number, x: number): boolean {
  hi -= 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const y = v[mid] ?? 0;
    if (y === x) return true;
    if (y < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Scratch of buildVector, per term id: the build that last saw it and its count / next
 * place. Stamped per build, so nothing is cleared and no Map or object is made per term
 * (a ranker build adds millions of tokens).
 */
export class VectorScratch {
  #mark = new Int32Array(0);
  #local = new Int32Array(0);
  #stamp = 0;

  /** Arrays for term ids below `terms`, and this build's stamp. */
  next(terms: number): { mark: Int32Array; local: Int32Array; stamp: number } {
    if (this.#mark.length < terms) {
      const size = Math.max(1024, terms * 2);
      const mark = new Int32Array(size);
      mark.set(this.#mark);
      this.#mark = mark;
      this.#local = new Int32Array(size);
    }
    return { mark: this.#mark, local: this.#local, stamp: ++this.#stamp };
  }
}

/** The vector of a document whose tokens' term ids are `tokIds`, the first `titleLen` of them its title. */
export function buildVector(
  tokIds: ArrayLike<number>,
  titleLen: number,
  termIds: number,
  scratch: VectorScratch,
): Uint32Array {
  const total = tokIds.length;
  const { mark, local, stamp } = scratch.next(termIds);
  const distinct: number[] = [];
  for (let i = 0; i < total; i++) {
    const t = tokIds[i] ?? 0;
    if (mark[t] !== stamp) {
      mark[t] = stamp;
      local[t] = 0;
      distinct.push(t);
    }
    local[t] = (local[t] ?? 0) + 1;
  }
  const ids = Int32Array.from(distinct).sort();
  const n = ids.length;
  const v = new Uint32Array(HEAD + n + n + 1 + total);
  v[N_TERMS] = n;
  v[TITLE_LEN] = titleLen;
  const starts = HEAD + n;
  let at = starts + n + 1;
  // Each term's run of positions starts where the previous ends; `local` becomes the next
  // free place of the term's run.
  for (let j = 0; j < n; j++) {
    const t = ids[j] ?? 0;
    v[HEAD + j] = t;
    v[starts + j] = at;
    const count = local[t] ?? 0;
    local[t] = at;
    at += count;
  }
  v[starts + n] = at;
  const shift = titleLen + 1;
  for (let i = 0; i < total; i++) {
    const t = tokIds[i] ?? 0;
    const place = local[t] ?? 0;
    local[t] = place + 1;
    v[place] = i < titleLen ? i : shift + i - titleLen;
  }
  return v;
}

/** The j-th term's column-weighted frequency (title hits count TITLE_WEIGHT). */
export function weightedFrequency(v: Uint32Array, j: number): number {
  const from = runStart(v, j);
  const to = runEnd(v, j);
  const titleLen = titleLength(v);
  let inTitle = 0;
  for (let k = from; k < to && (v[k] ?? 0) < titleLen; k++) inTitle++;
  return TITLE_WEIGHT * inTitle + (to - from - inTitle);
}

/** Scratch of phraseFreq: each phrase word's run of positions. */
const phraseFrom = new Uint32Array(MAX_PHRASE_TOKENS);
const phraseTo = new Uint32Array(MAX_PHRASE_TOKENS);

/**
 * Column-weighted count of the phrase (term ids, at most MAX_PHRASE_TOKENS) in the
 * document (0 when absent); with `first`, 1 as soon as one instance is found (for counting
 * the documents that hold it). Allocation-free: it runs for every candidate and phrase.
 */
export function phraseFreq(v: Uint32Array, phrase: readonly number[], first = false): number {
  const head = phrase[0];
  // No token, no instance (callers pass phrases of one token or more).
  if (head === undefined) return 0;
  const j0 = termIndex(v, head);
  if (j0 < 0) return 0;
  const k = phrase.length;
  for (let i = 1; i < k; i++) {
    const j = termIndex(v, phrase[i] ?? 0);
    if (j < 0) return 0;
    phraseFrom[i] = runStart(v, j);
    phraseTo[i] = runEnd(v, j);
  }
  const titleLen = titleLength(v);
  let f = 0;
  for (let at = runStart(v, j0), end = runEnd(v, j0); at < end; at++) {
    const start = v[at] ?? 0;
    let ok = true;
    for (let i = 1; i < k && ok; i++) ok = containsIn(v, phraseFrom[i] ?? 0, phraseTo[i] ?? 0, start + i);
    if (!ok) continue;
    if (first) return 1;
    f += start < titleLen ? TITLE_WEIGHT : 1;
  }
  return f;
}

/**
 * The terms' places in the content `text`, in text order (at most MAX_MATCHES): a merge of
 * their position runs, mapped to characters through `offsets` (each content token's start).
 */
export function matchesIn(v: Uint32Array, offsets: Uint32Array, text: string, terms: readonly number[]): Match[] {
  const shift = titleLength(v) + 1;
  // Cursor and end of each term's run (content positions only: they come after the title's).
  const runs = terms.map((t) => {
    const j = termIndex(v, t);
    let at = j < 0 ? 0 : runStart(v, j);
    const end = j < 0 ? 0 : runEnd(v, j);
    while (at < end && (v[at] ?? 0) < shift) at++;
    return { at, end };
  });
  const out: Match[] = [];
  while (out.length < MAX_MATCHES) {
    // The term whose next position comes first (the first such term on a tie).
    let best = -1;
    let bestPos = 0;
    for (const [i, run] of runs.entries()) {
      if (run.at >= run.end) continue;
      const pos = v[run.at] ?? 0;
      if (best < 0 || pos < bestPos) {
        best = i;
        bestPos = pos;
      }
    }
    const run = runs[best];
    if (run === undefined) break;
    run.at++;
    const from = must(offsets[bestPos - shift], "a content token's offset");
    out.push({ at: from, end: wordEnd(text, from), term: best });
  }
  return out;
}
