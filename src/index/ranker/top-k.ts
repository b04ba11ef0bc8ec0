/**
 * The best k of a stream of (score, id) pairs: a binary min-heap of size k, so choosing
 * 10 of 5,000 candidates costs 5,000 compares instead of a sort. Better = higher score,
 * then lower id (a stable order for ties, as a rowid-ordered scan gives).
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

  /** The score a pair must reach to enter: the worst kept once the heap is full, else -Infinity. */
  get threshold(): number {
    return this.#n < this.k ? -Infinity : this.#score[0];
  }

  /** False when `score` cannot enter (the heap is full of better or equal scores): a cheap pre-check. */
  admits(score: number): boolean {
    return this.#n < this.k || score >= this.#score[0];
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
        if (!TopK.#worse(score, id, s[p], d[p])) break;
        s[i] = s[p];
        d[i] = d[p];
        g[i] = g[p];
        i = p;
      }
      s[i] = score;
      d[i] = id;
      g[i] = tag;
      return;
    }
    if (!TopK.#worse(s[0], d[0], score, id)) return;
    // Replace the root (the worst kept) and sift down.
    let i = 0;
    const n = this.#n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && TopK.#worse(s[r], d[r], s[l], d[l]) ? r : l;
      if (!TopK.#worse(s[c], d[c], score, id)) break;
      s[i] = s[c];
      d[i] = d[c];
      g[i] = g[c];
      i = c;
    }
    s[i] = score;
    d[i] = id;
    g[i] = tag;
  }

  /** The kept pairs, best first, with their tags as `slot`. */
  sorted(): { id: number; score: number; slot: number }[] {
    const out: { id: number; score: number; slot: number }[] = [];
    for (let i = 0; i < this.#n; i++) out.push({ id: this.#id[i], score: this.#score[i], slot: this.#tag[i] });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
