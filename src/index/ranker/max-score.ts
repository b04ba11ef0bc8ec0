import { internalError } from '../../domain/must.ts';
import { contribution, K1_PLUS_1, lengthNorm } from './bm25.ts';
import type { PhraseCursor } from './phrase-cursor.ts';
import { BOUND_SLACK, END, type TermCursor } from './term-cursor.ts';
import type { TopK } from './top-k.ts';

/** One query word's postings as bm25() additions, with a bound on any of them. */
export interface Scorer {
  slot: number;
  next(): void;
  advance(target: number): void;
  /** The word's bm25() addition at the current slot, for a document of length part `norm`. */
  score(norm: number): number;
  /** No score() exceeds it (raised by BOUND_SLACK). */
  readonly ub: number;
  /** Postings decoded so far. */
  readonly decoded: number;
  /** Skips whole blocks that cannot add `need` (a term's; a phrase does not skip). */
  skipWeak(need: number, avgdl: number): void;
}

/** What a scorer walks: a term's or a phrase's postings. */
interface Walk {
  slot: number;
  readonly decoded: number;
  next(): void;
  advance(target: number): void;
}

/** A scorer over a walk: moves are the walk's; the IDF is the word's. */
abstract class WalkScorer<W extends Walk> implements Scorer {
  abstract readonly ub: number;
  protected readonly c: W;
  protected readonly w: number;

  constructor(walk: W, w: number) {
    this.c = walk;
    this.w = w;
  }

  get slot(): number {
    return this.c.slot;
  }

  get decoded(): number {
    return this.c.decoded;
  }

  next(): void {
    this.c.next();
  }

  advance(target: number): void {
    this.c.advance(target);
  }

  abstract score(norm: number): number;
  abstract skipWeak(need: number, avgdl: number): void;
}

/** A single-token word: a term's postings. */
export class TermScorer extends WalkScorer<TermCursor> {
  readonly ub: number;

  /** `w`: the term's IDF; `maxG`: no posting's g = f / (f + norm) is larger (posting-store.ts). */
  constructor(cursor: TermCursor, w: number, maxG: number) {
    super(cursor, w);
    this.ub = w * K1_PLUS_1 * maxG * BOUND_SLACK;
  }

  score(norm: number): number {
    return contribution(this.w, this.c.wf, norm);
  }

  skipWeak(need: number, avgdl: number): void {
    this.c.skipWeak(this.w, avgdl, need);
  }
}

/** A word FTS5 splits into several tokens: its phrase's instances. */
export class PhraseScorer extends WalkScorer<PhraseCursor> {
  /** freq / (freq + norm) < 1, so no addition reaches IDF × (k1 + 1). */
  readonly ub: number;

  constructor(cursor: PhraseCursor, w: number) {
    super(cursor, w);
    this.ub = w * K1_PLUS_1 * BOUND_SLACK;
  }

  score(norm: number): number {
    return contribution(this.w, this.c.freq, norm);
  }

  /** A phrase's instances have no block bounds: nothing is skipped. */
  skipWeak(): void {}
}

export interface Collection {
  /** Per slot: token count, and 1 while the document is live. */
  lens: Int32Array;
  live: Uint8Array;
  ids: Float64Array;
  avgdl: number;
}

/**
 * Offers `top` every live, accepted document holding any word, scored by the sum of the
 * words' additions in word order (the exhaustive ranker's order, so the same doubles), but
 * skips what cannot enter: MaxScore (Turtle & Flood 1995) over the words sorted by bound;
 * once the k-th score θ is known, the words whose bounds sum below θ are "non-essential":
 * candidates come from the others only, and a non-essential word's postings are only
 * advanced to a candidate while its score can still reach θ. With one essential word left,
 * whole blocks whose block bound cannot lift a document to θ are skipped unread
 * (block-max). A document is skipped only when its bound is below θ, and TopK keeps ties
 * by id, so the top-k is exactly the exhaustive one. `prune: false` scores every posting
 * (the reference the tests compare with).
 */
export function collectTop(
  scorers: readonly Scorer[],
  docs: Collection,
  top: TopK,
  accept: ((slot: number) => boolean) | undefined,
  prune = true,
): void {
  const m = scorers.length;
  if (m === 0 || top.k === 0) return;
  // The scorers by bound, smallest first (a stable sort), each with its place in `scorers`:
  // the order their additions are summed in.
  const ranked = scorers.map((scorer, place) => ({ scorer, place })).sort((a, b) => a.scorer.ub - b.scorer.ub);
  const byBound = ranked.map((r) => r.scorer);
  const place = Int32Array.from(ranked, (r) => r.place);
  const ub = Float64Array.from(byBound, (s) => s.ub);
  // below[j]: the bounds of byBound[0..j) summed.
  const below = new Float64Array(m + 1);
  let sum = 0;
  for (const [j, s] of byBound.entries()) below[j + 1] = sum += s.ub;
  const contrib = new Float64Array(m);
  const { lens, live, ids, avgdl } = docs;
  // Typed-array reads below are in range (j and e below m + 1, cand a slot a cursor holds):
  // their `?? 0` only satisfies the type and is never taken (this loop runs per candidate).
  let theta = -Infinity;
  /** The k-th score theta was last taken from (theta sits just under it). */
  let kth = -Infinity;
  let e = 0;
  for (;;) {
    if (prune && e === m - 1 && theta > -Infinity) {
      const last = byBound[e];
      if (last === undefined) throw noScorer(e);
      last.skipWeak(theta - (below[e] ?? 0), avgdl);
    }
    let cand = END;
    for (let j = e; j < m; j++) {
      const s = byBound[j];
      if (s === undefined) throw noScorer(j);
      if (s.slot < cand) cand = s.slot;
    }
    if (cand === END) break;
    const norm = lengthNorm(lens[cand] ?? 0, avgdl);
    let bound = below[e] ?? 0;
    for (let j = e; j < m; j++) {
      const s = byBound[j];
      if (s === undefined) throw noScorer(j);
      if (s.slot !== cand) continue;
      const c = s.score(norm);
      contrib[place[j] ?? 0] = c;
      bound += c;
      s.next();
    }
    let ok = live[cand] === 1;
    for (let j = e - 1; j >= 0 && ok; j--) {
      if (bound < theta) {
        ok = false;
        break;
      }
      const s = byBound[j];
      if (s === undefined) throw noScorer(j);
      s.advance(cand);
      bound -= ub[j] ?? 0;
      if (s.slot === cand) {
        const c = s.score(norm);
        contrib[place[j] ?? 0] = c;
        bound += c;
      }
    }
    if (ok && bound >= theta && (accept === undefined || accept(cand))) {
      let score = 0;
      for (let i = 0; i < m; i++) score += contrib[i] ?? 0;
      if (top.admits(score)) top.offer(score, ids[cand] ?? 0, cand);
      if (prune && top.threshold > kth) {
        kth = top.threshold;
        // A hair under the k-th score: a candidate tying it may still enter (lower id).
        theta = kth - Math.abs(kth) * 1e-12;
        while (e < m && (below[e + 1] ?? 0) < theta) e++;
        if (e === m) break;
      }
    }
    contrib.fill(0);
  }
}

const noScorer = (j: number): Error => internalError(`collectTop has no scorer ${j}`);

/** Postings decoded by the scorers (a benchmark's measure of the work a search did). */
export const decodedBy = (scorers: readonly Scorer[]): number => scorers.reduce((n, s) => n + s.decoded, 0);
