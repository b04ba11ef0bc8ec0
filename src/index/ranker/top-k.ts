/**
 * The best k of a stream of (score, id) pairs: a binary min-heap of size k, so choosing
 * 10 of 5,000 candidates costs 5,000 compares instead of a sort. Better = higher score,
 * then lower id (a stable order for ties, as a rowid-ordered scan gives).
 *
 * Heap reads stay below #n ≤ k, the arrays' length: their `?? 0` only satisfies the type
 * and is never taken (this runs for every candidate of a search: no check).
 */
export class TopK {
  readonly k: number;
  readonly #score: Float64Array;
  readonly #id: Float64Array;
  /** A number carried along with each pair (the ranker's slot). */
  readonly #tag: Int32Array;
  #n = 0;

  constructor(k: number) {
    this.k = k;
    this.#score = new Float64Array(k);
    this.#id = new Float64Array(k);
    this.#tag = new Int32Array(k);
  }

  /** Empties the heap for another round (the arrays are kept: allocating them showed up per search). */
  clear(): void {
    this.#n = 0;
  }

  /**
   * The score a pair must reach to enter: the worst kept once the heap is full, else
   * -Infinity; Infinity when k = 0 (nothing enters).
   */
  get threshold(): number {
    return this.#n < this.k ? -Infinity : (this.#score[0] ?? Infinity);
  }

  /** False when `score` cannot enter (the heap is full of better or equal scores, or k = 0): a cheap pre-check. */
  admits(score: number): boolean {
    if (this.#n < this.k) return true;
    const worst = this.#score[0];
    return worst !== undefined && score >= worst;
  }

  /** True when (a, ia) ranks below (b, ib). */
  static #worse(a: number, ia: number, b: number, ib: number): boolean {
    return a < b || (a === b && ia > ib);
  }

  offer(score: number, id: number, tag = 0): void {
    if (this.k === 0) return;
    const s = this.#score;
    const d = this.#id;
    const g = this.#tag;
    if (this.#n < this.k) {
      let i = this.#n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopK.#worse(score, id, s[p] ?? 0, d[p] ?? 0)) break;
        s[i] = s[p] ?? 0;
        d[i] = d[p] ?? 0;
        g[i] = g[p] ?? 0;
        i = p;
      }
      s[i] = score;
      d[i] = id;
      g[i] = tag;
      return;
    }
    if (!TopK.#worse(s[0] ?? 0, d[0] ?? 0, score, id)) return;
    // Replace the root (the worst kept) and sift down.
    let i = 0;
    const n = this.#n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && TopK.#worse(s[r] ?? 0, d[r] ?? 0, s[l] ?? 0, d[l] ?? 0) ? r : l;
      if (!TopK.#worse(s[c] ?? 0, d[c] ?? 0, score, id)) break;
      s[i] = s[c] ?? 0;
      d[i] = d[c] ?? 0;
      g[i] = g[c] ?? 0;
      i = c;
    }
    s[i] = score;
    d[i] = id;
    g[i] = tag;
  }

  /** The kept pairs, best first, with their tags as `slot`. */
  sorted(): { id: number; score: number; slot: number }[] {
    const out: { id: number; score: number; slot: number }[] = [];
    for (let i = 0; i < this.#n; i++) {
      out.push({ id: this.#id[i] ?? 0, score: this.#score[i] ?? 0, slot: this.#tag[i] ?? 0 });
    }
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
